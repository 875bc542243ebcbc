"""Requests are limited per client address and per operator key when the server is told to
(`--rate-limit-address`, `--rate-limit-operator-key`): past a burst of five seconds' worth, a
request is answered 429 `rate_limited` with `Retry-After`. The infrastructure's routes are
never limited."""
from conftest import DevServer
from operator_key import OperatorKey

ONE, TWO = OperatorKey("one", ["results:read"]), OperatorKey("two", ["results:read"])


def test_an_address_past_its_burst_is_told_when_to_retry_and_health_is_never_limited():
    server = DevServer("--rate-limit-address", "2", operator=False)
    try:
        statuses = [server.call("GET", "/v1/placements/onboarding", operator=False)[0] for _ in range(10)]
        assert statuses == [200] * 10
        status, headers, body = server.call("GET", "/v1/placements/onboarding", operator=False)
        assert status == 429 and body["error"]["code"] == "rate_limited" and int(headers["retry-after"]) >= 1
        assert server.call("GET", "/healthz", operator=False)[0] == 200
    finally:
        server.stop()


def test_each_operator_key_has_its_own_limit():
    server = DevServer("--rate-limit-operator-key", "1", *ONE.server_args(), *TWO.server_args(), operator=False)
    try:
        path = "/v1/experiments/onboarding/results"
        assert [server.call("GET", path, headers=ONE.headers())[0] for _ in range(5)] == [200] * 5
        status, headers, body = server.call("GET", path, headers=ONE.headers())
        assert status == 429 and "'one'" in body["error"]["message"] and headers["retry-after"] == "1"
        assert server.call("GET", path, headers=TWO.headers())[0] == 200
    finally:
        server.stop()
