"""POST /v1/events over real HTTP: storing, deduplication, refusals, persistence, the API key
and every fault switch on this route."""
import hashlib
import http.client
import sqlite3
import time

import pytest

from conftest import ON_POSTGRES, DevServer, record


def summary(server):
    return server.control("GET", "events/summary")


def stored_ids(server, **query):
    path = "events" + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")
    return [event["event_id"] for event in server.control("GET", path)["events"]]


def test_a_batch_is_stored_once_and_a_repeat_counts_as_duplicates(devserver):
    batch = [record("p-1"), record("p-2"), record("p-1", "paywall_closed")]
    assert devserver.post_events(batch, dropped_count=3)[::2] == (200, {"accepted": 3, "duplicates": 0})
    assert devserver.post_events(batch, dropped_count=3)[::2] == (200, {"accepted": 0, "duplicates": 3})
    assert stored_ids(devserver) == [r["event_id"] for r in batch]
    # The retried batch stored nothing new, so its dropped_count is not counted twice.
    assert summary(devserver) == {"stored": 3, "duplicates": 3, "batches": 2, "dropped_reported": 3}


def test_a_record_repeated_inside_one_batch_is_stored_once(devserver):
    one = record()
    assert devserver.post_events([one, one])[2] == {"accepted": 1, "duplicates": 1}


def test_stored_records_come_back_whole_filtered_by_profile_and_name(devserver):
    mine, other, closed = record("me"), record("you"), record("me", "paywall_closed", {"reason": "x", "price": 9.990})
    devserver.post_events([mine, other, closed])
    assert stored_ids(devserver, profile_id="me") == [mine["event_id"], closed["event_id"]]
    assert stored_ids(devserver, profile_id="me", name="paywall_closed") == [closed["event_id"]]
    stored = devserver.control("GET", "events?name=paywall_closed")["events"][0]
    assert stored == closed


@pytest.mark.parametrize("breakage", [
    {"event_id": "not-a-uuid"}, {"seq": 0}, {"created_at": "yesterday"}, {"name": "PaywallShown"},
    {"params": []}, {"sdk": {}}, {"profile_id": ""}, {"install_id": None},
])
def test_a_malformed_record_refuses_the_whole_batch_naming_it(devserver, breakage):
    good, bad = record(), record(**breakage)
    status, _, body = devserver.post_events([good, bad])
    assert status == 400
    assert body["error"]["code"] == "invalid_record"
    if isinstance(bad.get("event_id"), str):
        assert body["error"]["event_ids"] == [bad["event_id"]]
    assert summary(devserver)["stored"] == 0


def test_paywall_shown_needs_its_experiment_params(devserver):
    status, _, body = devserver.post_events([record(name="paywall_shown", params={"placement_id": "onboarding"})])
    assert (status, body["error"]["code"]) == (400, "invalid_record")


@pytest.mark.parametrize("body", [[], {"records": []}, {"records": {}}, {"records": [record() for _ in range(101)]},
                                  {"records": [record()], "dropped_count": -1}])
def test_a_body_that_is_not_a_batch_is_an_invalid_request(devserver, body):
    status, _, answer = devserver.call("POST", "/v1/events", body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request")


def test_a_body_over_the_limit_is_refused_with_413_before_it_is_read():
    server = DevServer("--max-body-bytes", "4096")
    try:
        status, headers, _ = server.post_events([record(params={"pad": "x" * 5000})])
        assert status == 413
        assert headers["connection"] == "close"
        assert server.post_events([record()])[0] == 200
    finally:
        server.stop()


def test_records_survive_a_restart_with_data_in_sqlite_wal(tmp_path):
    batch = [record("p-1"), record("p-2")]
    server = DevServer("--data", str(tmp_path))
    try:
        assert server.post_events(batch)[2] == {"accepted": 2, "duplicates": 0}
    finally:
        server.stop()
    if not ON_POSTGRES:   # on PostgreSQL, --data names the database (tests/postgres/devserver_on_postgres.py)
        with sqlite3.connect(tmp_path / "devserver.sqlite") as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    server = DevServer("--data", str(tmp_path))
    try:
        assert stored_ids(server) == [r["event_id"] for r in batch]
        assert server.post_events(batch)[2] == {"accepted": 0, "duplicates": 2}
        server.control("POST", "reset")
        assert summary(server)["stored"] == 0
    finally:
        server.stop()
    server = DevServer("--data", str(tmp_path))
    try:
        assert summary(server)["stored"] == 0, "a reset is kept in the files too"
    finally:
        server.stop()


def test_an_api_key_is_required_exactly_and_never_echoed():
    server = DevServer("--api-key", "sekret-123")
    try:
        for headers in ({}, {"authorization": "Bearer sekret-123"}, {"authorization": "sekret-123"}):
            status, _, body = server.call("POST", "/v1/events", {"records": [record()]}, headers)
            assert (status, body["error"]["code"]) == (401, "unauthorized"), headers
            assert "Api-Key <key>" in body["error"]["message"] and "sekret" not in str(body)
        status, _, body = server.call("POST", "/v1/events", {"records": [record()]}, {"authorization": "Bearer sekret-123"})
        assert "operator" in body["error"]["message"], "a Bearer key is named as an operator's"
        for wrong in ("wrong", "sekret-124"):
            status, _, body = server.call("POST", "/v1/events", {"records": [record()]}, {"authorization": f"Api-Key {wrong}"})
            assert (status, body["error"]["code"]) == (401, "invalid_app_key"), body
            prefix = hashlib.sha256(wrong.encode()).hexdigest()[:8]
            assert prefix in body["error"]["message"] and "--app-key-sha256" in body["error"]["message"], body
            assert wrong not in str(body) and hashlib.sha256(wrong.encode()).hexdigest()[:9] not in str(body)
        status, _, body = server.call("POST", "/v1/events", {"records": [record()]}, {"authorization": "Api-Key sekret-123"})
        assert (status, body["accepted"]) == (200, 1)
        assert server.call("GET", "/v1/placements/onboarding")[0] == 401
    finally:
        server.stop()
    assert "sekret" not in server.process.stderr.read() + server.process.stdout.read()


# --- fault switches on /v1/events ---

def test_latency_delays_the_answer(devserver):
    devserver.faults(latency_ms=300)
    started = time.monotonic()
    assert devserver.post_events([record()])[0] == 200
    assert time.monotonic() - started >= 0.3


def test_a_status_fault_answers_with_retry_after_and_stores_nothing(devserver):
    devserver.faults(status=429, retry_after=7)
    status, headers, body = devserver.post_events([record()])
    assert (status, headers["retry-after"], body["error"]["code"]) == (429, "7", "fault")
    assert summary(devserver)["stored"] == 0


def test_not_modified_and_malformed_faults(devserver):
    devserver.faults(not_modified=True)
    assert devserver.post_events([record()])[0] == 304
    devserver.faults(malformed=True)
    status, _, body = devserver.post_events([record()])
    assert status == 200 and isinstance(body, bytes)


def test_a_drop_fault_closes_the_connection_mid_response(devserver):
    devserver.faults(drop=True)
    with pytest.raises(http.client.IncompleteRead):
        devserver.post_events([record()])


def test_drop_rate_closes_a_share_of_requests_before_they_are_handled(devserver):
    devserver.faults(drop_rate=0.5, seed=7)
    sent, answered = [], []
    for _ in range(40):
        one = record()
        sent.append(one["event_id"])
        try:
            if devserver.post_events([one])[0] == 200:
                answered.append(one["event_id"])
        except ConnectionError:
            pass
    assert 5 < len(answered) < 35
    assert stored_ids(devserver) == answered, "a dropped request was never handled"
    assert devserver.stats()["by_status"]["no_response"] == 40 - len(answered)


def test_seed_makes_the_losses_repeat_exactly(devserver):
    def pattern():
        devserver.faults(drop_rate=0.5, seed=42)
        outcome = []
        for _ in range(20):
            try:
                outcome.append(devserver.post_events([record()])[0])
            except ConnectionError:
                outcome.append("lost")
        return outcome
    first = pattern()
    assert "lost" in first and 200 in first
    assert pattern() == first


def test_lost_responses_are_committed_and_a_retry_is_deduplicated(devserver):
    devserver.faults(lose_response_rate=0.5, seed=3)
    batches = [[record(), record()] for _ in range(20)]
    lost = 0
    for batch in batches:
        for _attempt in range(50):
            try:
                status, _, body = devserver.post_events(batch)
                break
            except ConnectionError:
                lost += 1
    assert lost > 0
    assert summary(devserver)["stored"] == 40, "every record once, however often it was sent"
    assert summary(devserver)["duplicates"] >= lost


def test_only_limits_the_faults_to_a_path_prefix(devserver):
    devserver.faults(status=503, only="/v1/events")
    assert devserver.post_events([record()])[0] == 503
    assert devserver.call("GET", "/v1/placements/onboarding")[0] == 200
    devserver.faults(status=503, only="/v1/placements")
    assert devserver.post_events([record()])[0] == 200


def test_refuse_events_named_refuses_a_batch_naming_those_records(devserver):
    devserver.faults(refuse_events_named=["poison"])
    good, poison = record(), record(name="poison")
    status, _, body = devserver.post_events([good, poison, record()])
    assert (status, body["error"]["code"], body["error"]["event_ids"]) == (400, "invalid_record", [poison["event_id"]])
    assert devserver.post_events([good])[0] == 200
    assert stored_ids(devserver) == [good["event_id"]]


@pytest.mark.parametrize("bad", [{"drop_rate": 1.5}, {"retry_after": 5}, {"only": "v1"}, {"refuse_events_named": "x"},
                                 {"seed": "x"}, {"lose_response_rate": -0.1}])
def test_bad_new_faults_are_refused(devserver, bad):
    with pytest.raises(Exception) as refused:
        devserver.faults(**bad)
    assert getattr(refused.value, "code", None) == 400
