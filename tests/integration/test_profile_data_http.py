"""What the device says about a profile besides purchases, over real HTTP: update_profile's
attributes, set_integration_identifiers and update_attribution reach the dev server through the
outbox (PUT /v1/profiles/{id}/attributes, PUT /v1/profiles/{id}/integration-ids,
POST /v1/attribution), each change once; the server keeps the latest, once per event_id; and an
opted-out user's exposures never leave the device."""
import pathlib
import time
import uuid

import paywire

ROOT = pathlib.Path(__file__).resolve().parents[2]


def client_of(server, tmp_path, profile_id):
    return paywire.Client({
        "profile_id": profile_id, "storage_dir": str(tmp_path / profile_id), "refresh_profile_on_start": False,
        "transport": {"type": "http", "base_url": server.url, "request_timeout_ms": 2000},
        "fallback": {"path": str(ROOT / "examples/bundle.json")},
        "analytics": {"flush_interval_ms": 600000, "exposure_flush_delay_ms": 60000, "retry_min_ms": 20, "retry_max_ms": 60}})


def wait_for(read, done, timeout=10.0):
    """Polls `read()` until `done(value)`; returns the last value read."""
    deadline = time.monotonic() + timeout
    value = read()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(0.05)
        value = read()
    return value


def requests_to(server, path):
    return server.stats()["by_path"].get(path, 0)


def test_each_change_reaches_the_server_once(devserver, tmp_path):
    data = lambda: devserver.control("GET", "profile-data?profile_id=pd-1")  # noqa: E731
    with client_of(devserver, tmp_path, "pd-1") as client:
        client.call("update_profile", {"email": "ada@example.com", "gender": "female", "custom_attributes": {"tier": "gold"}})
        client.call("set_integration_identifiers", {"appsflyer_id": "af-1", "amplitude_device_id": "amp-2"})
        client.call("update_attribution", {"source": "adjust", "attribution": {"network": "Organic"}, "network_user_id": "adj-1"})
        stored = wait_for(data, lambda value: value["attributions"] != {})
        assert stored == {
            "attributes": {"email": "ada@example.com", "gender": "female", "analytics_disabled": False,
                           "custom_attributes": {"tier": "gold"}},
            "integration_identifiers": {"amplitude_device_id": "amp-2", "appsflyer_id": "af-1"},
            "attributions": {"adjust": {"attribution": {"network": "Organic"}, "network_user_id": "adj-1"}}}
        # The same again sends nothing; a change sends the whole set again.
        client.call("update_profile", {"email": "ada@example.com"})
        client.call("set_integration_identifiers", {"appsflyer_id": "af-1"})
        client.call("update_attribution", {"source": "adjust", "attribution": {"network": "Organic"}, "network_user_id": "adj-1"})
        client.call("set_integration_identifiers", {"branch_id": "br-3"})
        stored = wait_for(data, lambda value: "branch_id" in value["integration_identifiers"])
        assert stored["integration_identifiers"] == {"amplitude_device_id": "amp-2", "appsflyer_id": "af-1", "branch_id": "br-3"}
    assert requests_to(devserver, "/v1/profiles/pd-1/attributes") == 1
    assert requests_to(devserver, "/v1/profiles/pd-1/integration-ids") == 2
    assert requests_to(devserver, "/v1/attribution") == 1


def test_the_records_survive_a_restart_while_the_server_is_down(devserver, tmp_path):
    devserver.faults(status=503, only="/v1/attribution")
    with client_of(devserver, tmp_path, "pd-2") as client:
        client.call("update_attribution", {"source": "branch", "attribution": {"~channel": "email"}})
        wait_for(lambda: requests_to(devserver, "/v1/attribution"), lambda count: count >= 1)
    devserver.faults()
    with client_of(devserver, tmp_path, "pd-2") as client:
        stored = wait_for(lambda: devserver.control("GET", "profile-data?profile_id=pd-2"), lambda value: value["attributions"] != {})
        assert stored["attributions"] == {"branch": {"attribution": {"~channel": "email"}}}
        assert client.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})["attributions"] == {
            "branch": {"attribution": {"~channel": "email"}}}


def test_the_server_keeps_the_latest_once_per_event_id(devserver):
    event_id = str(uuid.uuid4())
    body = {"event_id": event_id, "profile_id": "pd-3", "source": "appsflyer", "attribution": {"campaign": "a"}}
    assert devserver.call("POST", "/v1/attribution", body)[2] == {"stored": True}
    assert devserver.call("POST", "/v1/attribution", {**body, "attribution": {"campaign": "changed"}})[2] == {"stored": False}
    later = {**body, "event_id": str(uuid.uuid4()), "attribution": {"campaign": "b"}}
    assert devserver.call("POST", "/v1/attribution", later)[2] == {"stored": True}
    assert devserver.control("GET", "profile-data?profile_id=pd-3")["attributions"] == {"appsflyer": {"attribution": {"campaign": "b"}}}
    # The path names the profile.
    status, _, answer = devserver.call("PUT", "/v1/profiles/pd-3b/integration-ids",
                                       {"event_id": str(uuid.uuid4()), "profile_id": "pd-3", "integration_identifiers": {"branch_id": "b"}})
    assert (status, answer) == (200, {"stored": True})
    assert devserver.control("GET", "profile-data?profile_id=pd-3b")["integration_identifiers"] == {"branch_id": "b"}
    status, _, answer = devserver.call("PUT", "/v1/profiles/pd-3/integration-ids",
                                       {"event_id": str(uuid.uuid4()), "profile_id": "pd-3", "integration_identifiers": {"branch_id": ""}})
    assert status == 400 and answer["error"]["code"] == "invalid_request"
    status, _, _ = devserver.call("POST", "/v1/attribution", {**body, "event_id": str(uuid.uuid4()), "source": "Not A Source"})
    assert status == 400


def test_an_opted_out_users_exposures_stay_on_the_device(devserver, tmp_path):
    with client_of(devserver, tmp_path, "pd-4") as client:
        paywall = client.call("get_paywall", {"placement_id": "onboarding", "fetch_policy": "return_cache_data_else_load"})
        before = client.call("log_show_paywall", {"paywall": paywall})["event_id"]
        client.call("update_profile", {"analytics_disabled": True})
        assert client.call("log_show_paywall", {"paywall": paywall}) == {"analytics_disabled": True}
        assert client.call("flush_analytics", {"timeout_ms": 10000}) == {"remaining": 0}
        stored = wait_for(lambda: devserver.control("GET", "profile-data?profile_id=pd-4"), lambda value: value["attributes"] != {})
        assert stored["attributes"]["analytics_disabled"] is True
    events = devserver.control("GET", "events?profile_id=pd-4")["events"]
    assert [event["event_id"] for event in events] == [before]
