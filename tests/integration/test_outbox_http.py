"""The analytics outbox over real HTTP: records reach the dev server exactly once through every
fault switch on /v1/events, the api key goes with every request and appears nowhere else, and
refused records are isolated and dropped."""
import json
import pathlib

import pytest

import paywire
from conftest import DevServer, logs

#: Fast schedules so retries happen within a test; the rules are the production ones.
ANALYTICS = {"flush_interval_ms": 600000, "exposure_flush_delay_ms": 60000, "retry_min_ms": 20, "retry_max_ms": 60}


def outbox_client(server, tmp_path, api_key=None, profile_id="outbox-profile", **analytics):
    config = {"profile_id": profile_id, "storage_dir": str(tmp_path / "store"), "log_level": "debug",
              "transport": {"type": "http", "base_url": server.url, "request_timeout_ms": 2000},
              "fallback": {"path": str(pathlib.Path(__file__).resolve().parents[2] / "examples/bundle.json")},
              "analytics": {**ANALYTICS, **analytics}, "refresh_profile_on_start": False}
    if api_key is not None:
        config["api_key"] = api_key
    return paywire.Client(config)


def show(client, times=1):
    """Records `times` exposures of the onboarding paywall; returns their event ids."""
    paywall = client.call("get_paywall", {"placement_id": "onboarding", "fetch_policy": "return_cache_data_else_load"})
    return [client.call("log_show_paywall", {"paywall": paywall})["event_id"] for _ in range(times)]


def stored(server, profile_id="outbox-profile"):
    return [event["event_id"] for event in server.control("GET", f"events?profile_id={profile_id}")["events"]]


def flush(client, timeout_ms=10000):
    return client.call("flush_analytics", {"timeout_ms": timeout_ms})


def test_records_reach_the_backend_once_with_their_wire_shape(devserver, tmp_path):
    with outbox_client(devserver, tmp_path) as client:
        ids = show(client, 3)
        assert flush(client) == {"remaining": 0}
    assert stored(devserver) == ids
    record = devserver.control("GET", "events?profile_id=outbox-profile")["events"][0]
    assert (record["name"], record["seq"], record["params"]["placement_id"]) == ("paywall_shown", 1, "onboarding")
    assert devserver.control("GET", "events/summary")["duplicates"] == 0


@pytest.mark.parametrize("fault", [
    {"status": 503, "retry_after": 0}, {"status": 500}, {"status": 429}, {"status": 408}, {"drop": True},
    {"latency_ms": 3000}, {"not_modified": True},
])
def test_a_failing_backend_keeps_the_records_until_it_answers_again(devserver, tmp_path, fault):
    devserver.faults(**fault, only="/v1/events")
    with outbox_client(devserver, tmp_path) as client:
        ids = show(client, 2)
        with pytest.raises(paywire.PaywireError) as failed:
            flush(client, 1000)
        assert failed.value.code == "timeout" and failed.value.details["remaining"] == 2
        assert stored(devserver) == []
        devserver.faults()
        assert flush(client) == {"remaining": 0}
    assert sorted(stored(devserver)) == sorted(ids)


def test_malformed_answers_to_a_stored_batch_still_count_as_stored(devserver, tmp_path):
    devserver.faults(malformed=True, only="/v1/events")
    with outbox_client(devserver, tmp_path) as client:
        show(client, 1)
        # The fault answers 200 with a broken body: the status says the backend has it.
        assert flush(client) == {"remaining": 0}


def test_lost_answers_and_dropped_requests_lose_nothing_and_store_nothing_twice(devserver, tmp_path):
    devserver.faults(drop_rate=0.3, lose_response_rate=0.3, seed=11, only="/v1/events")
    with outbox_client(devserver, tmp_path, batch_max_records=3) as client:
        ids = show(client, 12)
        assert flush(client, 30000) == {"remaining": 0}
    assert sorted(stored(devserver)) == sorted(ids)
    assert len(set(stored(devserver))) == 12


def test_a_refused_record_is_isolated_and_dropped_and_the_rest_delivered(devserver, tmp_path):
    devserver.faults(refuse_events_named=["paywall_view_did_appear"])
    with outbox_client(devserver, tmp_path) as client:
        ids = show(client, 3)
        paywall = client.call("get_paywall", {"placement_id": "onboarding", "fetch_policy": "return_cache_data_else_load"})
        view = client.call("create_paywall_view", {"paywall": paywall})
        client.call("present_paywall_view", {"view_id": view["id"]})
        assert flush(client) == {"remaining": 0}
        dropped = [event for event in logs(client) if event["level"] == "error" and "event_ids" in event["details"]]
    assert sorted(stored(devserver)) == sorted(ids)
    assert len(dropped) == 1 and len(dropped[0]["details"]["event_ids"]) == 1


def test_records_kept_by_a_killed_client_leave_with_the_next_one(devserver, tmp_path):
    devserver.faults(status=503, only="/v1/events")
    first = outbox_client(devserver, tmp_path)
    ids = show(first, 4)
    first.close()
    devserver.faults()
    with outbox_client(devserver, tmp_path) as second:
        ids += show(second, 1)
        assert flush(second) == {"remaining": 0}
    assert stored(devserver) == ids


def test_freeing_the_client_sends_a_last_batch_within_its_budget(devserver, tmp_path):
    client = outbox_client(devserver, tmp_path)
    ids = show(client, 2)
    client.close()
    assert stored(devserver) == ids


def test_the_api_key_goes_with_every_request_and_is_never_written_anywhere(tmp_path):
    key = "sk_live_S3CR3T-7f2a9"
    server = DevServer("--api-key", key)
    try:
        with outbox_client(server, tmp_path, api_key=key) as client:
            ids = show(client, 2)
            assert flush(client) == {"remaining": 0}
            seen = json.dumps(client.call("get_sdk_version")) + json.dumps(list(client.events(0.2)))
        assert stored(server) == ids
        with outbox_client(server, tmp_path, api_key="sk_live_wrong-key") as client:
            show(client, 1)
            with pytest.raises(paywire.PaywireError) as refused:
                flush(client)
            assert refused.value.code == "unauthorized"
            events = list(client.events(0.2))
            assert [event["level"] for event in events if event["event"] == "log" and "401" in event["message"]] == ["error"]
            seen += json.dumps(refused.value.details) + refused.value.message + json.dumps(events)
        for bad in ({"api_key": "has space"}, {"api_key": 12}):
            with pytest.raises(paywire.PaywireError) as wrong:
                paywire.Client({**bad, "profile_id": "x"})
            seen += wrong.value.message + json.dumps(wrong.value.details)
    finally:
        server.stop()
    files = b"".join(path.read_bytes() for path in (tmp_path / "store").rglob("*") if path.is_file())
    assert key not in seen and "wrong-key" not in seen and "has space" not in seen
    assert key.encode() not in files and b"wrong-key" not in files


def test_unauthorized_stops_delivery_without_a_retry_storm(tmp_path):
    server = DevServer("--api-key", "right")
    try:
        with outbox_client(server, tmp_path, api_key="wrong", flush_at=1) as client:
            show(client, 3)
            with pytest.raises(paywire.PaywireError) as refused:
                flush(client, 500)
            assert refused.value.code == "unauthorized"
        assert server.stats()["by_path"].get("/v1/events", 0) == 1
    finally:
        server.stop()
