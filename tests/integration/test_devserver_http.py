"""The dev server's HTTP/1.1 framing over raw sockets: bytes a head must not carry are
answered 400 (not a silent close), 405 names what is allowed, keep-alive, 100-continue, 431."""
import json
import socket

import pytest


def exchange(server, raw, read_until_close=True):
    """Sends raw bytes; returns everything the server answered until it closed (or 2 s)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as connection:
        connection.sendall(raw)
        chunks = []
        connection.settimeout(2)
        try:
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if not read_until_close:
                    break
        except socket.timeout:
            pass
        return b"".join(chunks)


@pytest.mark.parametrize("value", [b"\xe9t\xe9", "\u00e9t\u00e9".encode(), b"\"abc\x01\""])
def test_a_header_that_is_not_ascii_is_answered_400(devserver, value):
    answer = exchange(devserver, b"GET /v1/placements/onboarding HTTP/1.1\r\nHost: x\r\nx-paywire-profile-id: p\r\nIf-None-Match: " + value + b"\r\n\r\n")
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line == b"HTTP/1.1 400 Bad Request"
    body = json.loads(rest.split(b"\r\n\r\n", 1)[1])
    assert body["error"]["code"] == "bad_request"
    assert b"connection: close" in rest.lower()


def test_a_method_a_resource_does_not_take_is_405_with_allow(devserver):
    for method, path, allowed in (("DELETE", "/v1/placements/onboarding", "GET"), ("GET", "/v1/events", "POST"),
                                  ("PUT", "/v1/purchases", "POST"), ("POST", "/dashboard", "GET")):
        status, headers, body = devserver.call(method, path, {} if method != "GET" else None)
        assert (status, headers["allow"], body["error"]["code"]) == (405, allowed, "method_not_allowed")


def test_requests_share_one_kept_alive_connection(devserver):
    request = b"GET /v1/placements/onboarding HTTP/1.1\r\nHost: x\r\nx-paywire-profile-id: p\r\n\r\n"
    answer = exchange(devserver, request * 2 + b"GET /v1/placements/settings HTTP/1.1\r\nHost: x\r\nx-paywire-profile-id: p\r\nConnection: close\r\n\r\n")
    assert answer.count(b"HTTP/1.1 200 OK") == 3


def test_expect_100_continue_is_honoured(devserver):
    body = json.dumps({"records": []}).encode()
    with socket.create_connection(("127.0.0.1", devserver.port), timeout=5) as connection:
        connection.sendall(b"POST /v1/events HTTP/1.1\r\nHost: x\r\nx-paywire-profile-id: p\r\nExpect: 100-continue\r\nContent-Length: "
                           + str(len(body)).encode() + b"\r\n\r\n")
        assert connection.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        connection.sendall(body)
        assert connection.recv(100).startswith(b"HTTP/1.1 400 ")   # an empty batch


def test_a_head_over_64_kib_is_refused(devserver):
    answer = exchange(devserver, b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 431 ")


def test_a_broken_request_line_is_400(devserver):
    assert exchange(devserver, b"HELLO\r\n\r\n").startswith(b"HTTP/1.1 400 ")


def test_a_string_holding_nul_is_refused_on_every_engine(devserver):
    # PostgreSQL's text cannot hold U+0000, so neither engine stores one: the body is refused whole.
    body = json.dumps({"event_id": "e", "profile_id": "nul", "transactions": [{
        "transaction_id": "t\u0000", "original_transaction_id": "t", "vendor_product_id": "premium_monthly",
        "verification": "x", "purchased_at": 1, "environment": "sandbox", "store": "test"}]}).encode()
    status, _, answer = devserver.call("POST", "/v1/restores", body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request")
    assert devserver.call("GET", "/v1/profiles/t%00")[0] == 400
    assert devserver.call("GET", "/v1/profiles/nul")[0] == 404, "nothing was stored"
