"""prefetch over real HTTP with the built-in transport: a synchronous call warms the disk
cache from the dev server, so a later client offline answers from it; a placement the backend
lacks is its own entry; a backend down falls back per placement without failing the call."""
from conftest import BACKEND_CREATED_AT


def test_prefetch_warms_the_disk_cache_for_an_offline_restart(make_client, devserver, tmp_path):
    online = make_client(storage_dir=tmp_path / "store")
    answer = online.call("prefetch", {"placement_ids": ["onboarding", "settings", "nowhere"]})
    sources = {entry["placement_id"]: entry["source"] for entry in answer["placements"]}
    assert sources == {"onboarding": "backend", "settings": "backend", "nowhere": "none"}
    assert answer["placements"][2]["error"]["code"] == "not_found"
    assert devserver.stats()["requests"]  # the backend was asked
    online.close()

    # The backend is down now: a client with the same storage serves what prefetch kept.
    devserver.faults(status=503)
    offline = make_client(storage_dir=tmp_path / "store", fallback=False)
    paywall = offline.call("get_paywall", {"placement_id": "settings", "fetch_policy": "return_cache_data_else_load"})
    assert paywall["response_created_at"] == BACKEND_CREATED_AT


def test_a_failing_backend_falls_back_per_placement(make_client, devserver):
    devserver.faults(status=500)
    client = make_client()
    answer = client.call("prefetch", {"placement_ids": ["onboarding"]})
    entry = answer["placements"][0]
    assert entry["source"] == "fallback"
    assert entry["error"]["code"] == "network_failed" and entry["error"]["details"]["status"] == 500
    assert answer["asset_urls"] == entry["asset_urls"]
