"""The built-in HTTP transport against paywire-devserver over real HTTP on loopback: every
fault switch, the time budget, the cache across processes, shared requests, and freeing a
client mid-request."""
import json
import os
import stat
import subprocess
import sys
import threading
import time

import pytest

import paywire
import timeshift
from conftest import BACKEND_CREATED_AT, FALLBACK_CREATED_AT, ROOT, fallback_log, logs

PLACEMENT = {"placement_id": "onboarding"}


def served_from_bundle(client, params=PLACEMENT):
    """Asks for the paywall, checks the app's bundle served it, and returns the log's details."""
    assert client.call("get_paywall", params)["response_created_at"] == FALLBACK_CREATED_AT
    return fallback_log(client)


def test_network_answer_is_served_and_newer_than_the_bundle(make_client, devserver):
    client = make_client()
    paywall = client.call("get_paywall", PLACEMENT)
    assert paywall["response_created_at"] == BACKEND_CREATED_AT
    assert paywall["placement"]["developer_id"] == "onboarding"
    assert devserver.stats()["by_status"] == {"200": 1}
    assert logs(client) == []


def test_cached_copy_is_revalidated_with_its_etag(make_client, devserver):
    client = make_client()
    first = client.call("get_paywall", PLACEMENT)
    second = client.call("get_paywall", PLACEMENT)
    assert second == first
    # The second request carried If-None-Match and the server confirmed the copy.
    assert devserver.stats()["by_status"] == {"200": 1, "304": 1}


def test_unknown_placement_is_not_found_when_no_source_has_it(make_client, devserver):
    client = make_client()
    with pytest.raises(paywire.PaywireError) as failure:
        client.call("get_paywall", {"placement_id": "no_such_placement"})
    assert failure.value.code == "not_found"
    assert devserver.stats()["by_status"] == {"404": 1}


def test_http_500_falls_back_to_the_cache_then_the_bundle(make_client, devserver, tmp_path):
    cached = make_client(storage_dir=tmp_path / "store")
    cached.call("get_paywall", PLACEMENT)
    devserver.faults(status=500)
    paywall = cached.call("get_paywall", PLACEMENT)
    assert paywall["response_created_at"] == BACKEND_CREATED_AT
    details = fallback_log(cached)
    assert details["source"] == "cache" and details["status"] == 500

    assert served_from_bundle(make_client())["source"] == "fallback"


def test_malformed_json_is_a_decoding_failure_and_falls_back(make_client, devserver):
    devserver.faults(malformed=True)
    assert served_from_bundle(make_client())["underlying_error"] == "decoding_failed"


def test_dropped_connection_falls_back(make_client, devserver):
    devserver.faults(drop=True)
    details = served_from_bundle(make_client())
    assert details["underlying_error"] == "network_failed"
    assert details["transport_error"] in ("truncated_response", "empty_reply", "connection_lost")


def test_304_without_a_cached_copy_falls_back_to_the_bundle(make_client, devserver):
    devserver.faults(not_modified=True)
    assert served_from_bundle(make_client())["source"] == "fallback"


def test_304_with_a_cached_copy_serves_the_cache(make_client, devserver):
    client = make_client()
    client.call("get_paywall", PLACEMENT)
    devserver.faults(not_modified=True)
    paywall = client.call("get_paywall", PLACEMENT)
    assert paywall["response_created_at"] == BACKEND_CREATED_AT
    assert logs(client) == []


def test_slow_backend_does_not_stretch_the_budget_and_its_late_answer_fills_the_cache(make_client, devserver):
    devserver.faults(latency_ms=2500)
    client = make_client()
    started = time.monotonic()
    paywall = client.call("get_paywall", {**PLACEMENT, "load_timeout": 1})
    elapsed = time.monotonic() - started
    # The budget is 1 s and the backend needs 2.5 s: the answer comes from the bundle near 1 s.
    assert paywall["response_created_at"] == FALLBACK_CREATED_AT
    assert elapsed < 2.0, f"get_paywall took {elapsed:.2f} s with a 1 s budget"
    assert fallback_log(client)["underlying_error"] == "timeout"
    # The request went on; once it lands, the cache has the backend's copy.
    deadline = time.monotonic() + 10
    while devserver.stats()["requests"] < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)
    cached = client.call("get_paywall", {**PLACEMENT, "fetch_policy": "return_cache_data_else_load"})
    assert cached["response_created_at"] == BACKEND_CREATED_AT


def test_concurrent_calls_for_one_placement_share_one_request(make_client, devserver):
    devserver.faults(latency_ms=500)
    client = make_client()
    call_ids = [client.call_async("get_paywall", PLACEMENT) for _ in range(8)]
    results = {}
    for event in client.events(timeout=5):
        if event["event"] == "call_result":
            results[event["call_id"]] = event["envelope"]["success"]["response_created_at"]
            if len(results) == len(call_ids):
                break
    assert sorted(results) == sorted(call_ids)
    assert set(results.values()) == {BACKEND_CREATED_AT}
    assert devserver.stats()["requests"] == 1


def test_parallel_sync_calls_from_threads_share_one_request(make_client, devserver):
    devserver.faults(latency_ms=500)
    client = make_client()
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(client.call("get_paywall", PLACEMENT)))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert [answer["response_created_at"] for answer in answers] == [BACKEND_CREATED_AT] * 4
    assert devserver.stats()["requests"] == 1


def test_freeing_the_client_wakes_a_call_blocked_on_the_network(make_client, devserver):
    devserver.faults(latency_ms=4000)
    client = make_client(fallback=False)
    outcome = {}

    def blocked_call():
        try:
            client.call("get_paywall", {**PLACEMENT, "load_timeout": 20})
        except paywire.PaywireError as error:
            outcome["code"] = error.code
        outcome["at"] = time.monotonic()

    thread = threading.Thread(target=blocked_call)
    thread.start()
    time.sleep(0.5)
    closed_at = time.monotonic()
    client.close()
    thread.join(10)
    assert outcome["code"] == "closed"
    assert outcome["at"] - closed_at < 2.0


def test_request_timeout_of_the_transport_ends_a_slow_exchange(make_client, devserver):
    devserver.faults(latency_ms=2000)
    client = make_client(request_timeout_ms=400)
    started = time.monotonic()
    paywall = client.call("get_paywall", {**PLACEMENT, "load_timeout": 5})
    # The transport gives up after 0.4 s, long before the backend (2 s) or the budget (5 s).
    assert time.monotonic() - started < 1.9
    assert paywall["response_created_at"] == FALLBACK_CREATED_AT
    assert fallback_log(client)["underlying_error"] == "timeout"


CHILD = """
import json, sys, paywire
config = json.loads(sys.argv[1])
with paywire.Client(config) as client:
    paywall = client.call("get_paywall", {"placement_id": "onboarding"})
    sources = [e["details"].get("source") for e in client.events(0.2) if e["event"] == "log"]
    print(json.dumps({"created_at": paywall["response_created_at"], "sources": sources}))
"""


def run_child(config):
    config = timeshift.client_config({"refresh_profile_on_start": False, **config})  # the test counts placement requests
    env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings/python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_cache_survives_a_restart_in_another_process(devserver, tmp_path):
    store = tmp_path / "store"
    config = {"profile_id": "p", "storage_dir": str(store), "transport": {"type": "http", "base_url": devserver.url}}
    assert run_child(config) == {"created_at": BACKEND_CREATED_AT, "sources": []}

    cache_files = [path for path in store.iterdir() if path.name.startswith("placement-cache-")]
    assert len(cache_files) == 1
    assert stat.S_IMODE(cache_files[0].stat().st_mode) == 0o600

    # Offline now, and no bundle at all: the second process shows what the first one showed.
    devserver.faults(drop=True)
    assert run_child(config) == {"created_at": BACKEND_CREATED_AT, "sources": ["cache"]}


def test_truncated_cache_entry_is_ignored_and_replaced(devserver, tmp_path, fallback_path):
    store = tmp_path / "store"
    config = {"profile_id": "p", "storage_dir": str(store), "fallback": {"path": fallback_path},
              "transport": {"type": "http", "base_url": devserver.url}}
    run_child(config)
    entry = next(path for path in store.iterdir() if path.name.startswith("placement-cache-"))
    entry.write_bytes(entry.read_bytes()[:40])

    devserver.faults(status=503)
    assert run_child(config) == {"created_at": FALLBACK_CREATED_AT, "sources": ["fallback"]}

    devserver.faults()
    assert run_child(config)["created_at"] == BACKEND_CREATED_AT
    assert json.loads(entry.read_text())["placement_id"] == "onboarding"


def test_devserver_bodies_match_the_api_spec_and_the_wire_schema(devserver):
    import urllib.request

    import jsonschema
    import yaml

    spec = yaml.safe_load((ROOT / "api/openapi.yaml").read_text())
    wire = json.loads((ROOT / "schema/paywire.schema.json").read_text())
    bundle = json.loads((ROOT / "examples/bundle.json").read_text())
    for section, definition in (("placements", "bundle_placement"), ("onboardings", "bundle_onboarding_placement")):
        placement_schema = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": wire["$defs"]})
        for placement_id in bundle[section]:
            request = urllib.request.Request(f"{devserver.url}/v1/{section}/{placement_id}",
                                             headers={"x-paywire-profile-id": "integration-test"})
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.headers["ETag"].startswith('"')
                document = json.loads(response.read())
            jsonschema.validate(document, spec["components"]["schemas"]["PlacementResponse"])
            placement_schema.validate(document["placement"])
            # Served exactly as authored: the same placement the bundle holds.
            assert document == {"response_created_at": bundle["response_created_at"], "placement": bundle[section][placement_id]}


def test_profile_from_the_backend_grants_access_bought_elsewhere(make_client, devserver):
    devserver.control("PUT", "profiles/integration-profile", {
        "access_levels": {"premium": {"vendor_product_id": "premium_annual", "activated_at": "2026-01-01T00:00:00Z",
                                      "expires_at": "2099-01-01T00:00:00Z"}},
        "custom_attributes": {"plan_source": "web"}})
    client = make_client()
    profile = client.call("get_profile")
    assert profile["access_levels"]["premium"]["is_active"] is True
    assert profile["custom_attributes"] == {"plan_source": "web"}
    # The snapshot every client starts with, then the backend's grants.
    assert [event["event"] for event in client.events(0.2)] == ["did_load_latest_profile"] * 2
    # Unchanged on the backend: revalidated, no new event.
    assert client.call("get_profile") == profile
    assert list(client.events(0.2)) == []
    assert devserver.stats()["by_status"] == {"200": 1, "304": 1}


def test_profile_unknown_to_the_backend_is_the_device_profile(make_client, devserver):
    client = make_client()
    profile = client.call("get_profile")
    assert profile["profile_id"] == "integration-profile" and profile["access_levels"] == {}
    # Only the snapshot every client starts with: nothing changed.
    assert [event["event"] for event in client.events(0.2)] == ["did_load_latest_profile"]
    assert devserver.stats()["by_status"] == {"404": 1}


def test_onboarding_placements_come_from_the_backend_too(make_client, devserver):
    client = make_client()
    bundle = json.loads((ROOT / "examples/bundle.json").read_text())
    onboarding_id = next(iter(bundle["onboardings"]))
    onboarding = client.call("get_onboarding", {"placement_id": onboarding_id})
    assert onboarding["response_created_at"] == BACKEND_CREATED_AT
    assert devserver.stats()["by_path"] == {f"/v1/onboardings/{onboarding_id}": 1}
    devserver.faults(drop=True)
    assert client.call("get_onboarding", {"placement_id": onboarding_id})["response_created_at"] == BACKEND_CREATED_AT
    assert fallback_log(client)["source"] == "cache"
