"""paywire-server as operators run it (no --dev): health, readiness and metrics routes, JSON
logs without secrets, API keys as SHA-256 digests, configuration from the environment, the
development conveniences refused, and SIGTERM finishing the requests in flight. On both engines
(the stage integration-postgres runs this file on PostgreSQL)."""
import hashlib
import json
import os
import signal
import socket
import subprocess
import threading
import time

import pytest

from conftest import BACKEND_BUNDLE, ON_POSTGRES, PRODUCTS, SERVER, DevServer, database_url, purchase, record


def production(tmp_path, *args, env=None, files=True):
    return DevServer("--database", database_url(tmp_path), *args, executable=SERVER, env=env, files=files)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_health_readiness_and_metrics_answer_without_a_key(tmp_path):
    server = production(tmp_path, "--api-key-sha256", hashlib.sha256(b"k").hexdigest())
    try:
        assert server.call("GET", "/healthz", operator=False)[::2] == (200, {"status": "ok"})
        assert server.call("GET", "/readyz", operator=False)[::2] == (200, {"status": "ready"})
        key = {"authorization": "Api-Key k"}
        assert server.post_events([record("m-1"), record("m-2")], **{})[0] == 401
        assert server.call("POST", "/v1/events", {"records": [record("m-1"), record("m-2")]}, key)[0] == 200
        one = record("m-3")
        for _ in range(2):
            server.call("POST", "/v1/events", {"records": [one]}, key)
        # Without Pub/Sub's tokens checked, Play's route takes an operator key; the handler then refuses the message.
        server.call("POST", "/v1/notifications/play", {"subscription": "s", "message": {"messageId": "x", "data": "e30="}})
        status, headers, text = server.call("GET", "/metrics", operator=False)
        assert status == 200 and headers["content-type"].startswith("text/plain")
        metrics = text.decode()
        assert 'paywire_http_requests_total{route="/v1/events",method="POST",status="401"} 1' in metrics
        assert 'paywire_http_requests_total{route="/v1/events",method="POST",status="200"} 3' in metrics
        assert 'paywire_events_ingested_total{outcome="accepted"} 3' in metrics
        assert 'paywire_events_ingested_total{outcome="duplicate"} 1' in metrics
        assert 'paywire_notifications_total{source="play_store",outcome="refused"} 1' in metrics
        assert 'paywire_http_request_duration_seconds_count{route="/v1/events",method="POST"} 4' in metrics
    finally:
        server.stop()


def test_without_dev_there_are_no_development_routes_faults_profiles_or_test_store(tmp_path):
    server = production(tmp_path)
    try:
        assert server.call("GET", "/_dev/stats")[0] == 404
        status, _, body = server.call("POST", "/v1/purchases", purchase("buyer", "t-prod"))
        assert (status, body["error"]["code"]) == (422, "unsupported_store")
        assert server.call("POST", "/v1/notifications/test-store", {"notification_id": "n", "type": "EXPIRED",
                                                                     "original_transaction_id": "t"})[0] == 400
    finally:
        server.stop()
    for flags in (["--faults", "{}"], ["--latency-ms", "5"], ["--drop"], ["--profiles", str(PRODUCTS)]):
        done = subprocess.run([SERVER, "--bundle", str(BACKEND_BUNDLE), "--database", f"sqlite:{tmp_path}/x.sqlite", *flags],
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == 2 and "--dev" in done.stderr, flags
    done = subprocess.run([SERVER, "--bundle", str(BACKEND_BUNDLE)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "--database is required" in done.stderr, "production never falls back to memory"


def test_configuration_comes_from_the_environment_and_flags_win(tmp_path):
    port = free_port()
    env = {**os.environ, "PAYWIRE_BUNDLE": str(BACKEND_BUNDLE), "PAYWIRE_DATABASE": database_url(tmp_path),
           "PAYWIRE_PORT": "1", "PAYWIRE_API_KEY_SHA256": hashlib.sha256(b"from-env").hexdigest(), "PAYWIRE_LOG_FORMAT": "text"}
    server = DevServer("--port", str(port), executable=SERVER, env=env, files=False)
    try:
        assert server.port == port, "the flag wins over PAYWIRE_PORT"
        assert server.call("GET", "/v1/placements/onboarding")[0] == 401
        assert server.call("GET", "/v1/placements/onboarding", headers={"authorization": "Api-Key from-env"})[0] == 200
    finally:
        server.stop()
    done = subprocess.run([SERVER], capture_output=True, text=True, timeout=30, env={**env, "PAYWIRE_PORT": "x"})
    assert done.returncode == 2 and "--port" in done.stderr


def test_logs_are_json_lines_and_never_hold_a_key(tmp_path):
    server = production(tmp_path, "--api-key", "sekret-42", "--log-level", "debug")
    try:
        for headers in ({"authorization": "Api-Key sekret-42"}, {"authorization": "Api-Key sekret-43"}):
            server.call("POST", "/v1/events", {"records": [record("log-1")]}, headers)
            server.call("GET", "/v1/profiles/log-1", headers=headers)
    finally:
        server.stop()
    logs = server.process.stderr.read()
    lines = [json.loads(line) for line in logs.splitlines()]
    requests = [line for line in lines if line["msg"] == "request"]
    assert {(line["route"], line["status"]) for line in requests} >= {("/v1/events", "200"), ("/v1/events", "401"),
                                                                       ("/v1/profiles/{profile_id}", "404")}
    assert all({"ts", "level", "label", "msg"} <= line.keys() for line in lines)
    assert "sekret" not in logs and "log-1" not in logs, "no key, and no path or body that names a profile"


def test_sigterm_answers_the_requests_in_flight_then_exits(tmp_path):
    server = DevServer("--data", str(tmp_path), "--latency-ms", "1500")
    answers = []
    sender = threading.Thread(target=lambda: answers.append(server.post_events([record("late")])))
    sender.start()
    time.sleep(0.5)
    server.process.send_signal(signal.SIGTERM)
    sender.join(timeout=20)
    assert answers and answers[0][0] == 200, "the request in flight is answered"
    assert server.process.wait(timeout=20) == 0
    with pytest.raises(ConnectionError):
        socket.create_connection(("127.0.0.1", server.port), timeout=2)
    again = DevServer("--data", str(tmp_path))
    try:
        assert again.control("GET", "events/summary")["stored"] == 1, "what was answered was stored"
    finally:
        again.stop()


@pytest.mark.skipif(not ON_POSTGRES, reason="a database that stops answering is a PostgreSQL one here")
def test_readiness_fails_while_the_database_does_not_answer(tmp_path):
    url = database_url(tmp_path)
    server = DevServer("--database", url, executable=SERVER)
    try:
        assert server.call("GET", "/readyz")[0] == 200
        admin, name = url.rsplit("/", 1)
        subprocess.run(["psql", admin + "/postgres", "-qc", f'DROP DATABASE "{name.split("?")[0]}" WITH (FORCE)'], check=True)
        status, _, body = server.call("GET", "/readyz", timeout=15)
        assert (status, body["status"]) == (503, "not_ready")
        assert server.call("GET", "/healthz")[0] == 200, "alive all the same"
    finally:
        server.stop()
