"""A full or read-only disk: every write that fails says storage_failed naming the file, and
the client's memory never claims what the disk did not keep (a restart would show the same).

The full disk is a 256 KiB tmpfs (skipped, with the reason printed, where this machine may not
mount one); the read-only directory is checked by a child process that, when the tests run as
root, drops to `nobody` (root writes through any mode bits)."""
import json
import os
import shutil
import tempfile

import pytest

from helpers import config, drain, fill, paywire, start_child

MONTHLY = "premium_monthly"


def refused(call, *args):
    with pytest.raises(paywire.PaywireError) as failure:
        call(*args)
    return failure.value


def assert_names(error, path):
    assert (error.code, error.status) == ("storage_failed", "FAILED"), error
    assert error.details["path"] == str(path)


def temporary_files(directory):
    return [name for name in os.listdir(directory) if ".json.tmp." in name]


def test_profile_changes_on_a_full_disk_fail_naming_the_file_and_change_nothing(tiny_tmpfs):
    store = tiny_tmpfs / "store"
    client = paywire.Client(config(store))
    client.call("update_profile", {"custom_attributes": {"kept": 1}})
    before = client.call("get_profile")
    drain(client)
    filler = fill(tiny_tmpfs)

    error = refused(client.call, "update_profile", {"custom_attributes": {"lost": 2}})
    # The backend's record of the change is kept first (outbox.sqlite), then the profile: which
    # of the two the full disk refuses depends on the room SQLite's WAL has left.
    assert error.details["path"] in (str(store / "outbox.sqlite"), str(store / "profile.json")), error
    assert (error.code, error.status) == ("storage_failed", "FAILED"), error
    assert any(words in error.details["underlying_error"].lower() for words in ("space", "disk is full"))
    # identify keeps its identity record for the backend first, as update_profile does.
    identified = refused(client.call, "identify", {"customer_user_id": "u1"})
    assert identified.details["path"] in (str(store / "outbox.sqlite"), str(store / "profile.json")), identified
    assert (identified.code, identified.status) == ("storage_failed", "FAILED"), identified
    assert_names(refused(client.call, "logout"), store / "profile.json")
    assert client.call("get_profile") == before
    assert [e["event"] for e in drain(client) if e["event"] == "did_load_latest_profile"] == []
    assert temporary_files(store) == []

    filler.unlink()
    client.call("update_profile", {"custom_attributes": {"later": 3}})
    memory = client.call("get_profile")
    client.close()
    restarted = paywire.Client(config(store))
    assert restarted.call("get_profile") == memory
    assert memory["custom_attributes"] == {"kept": 1, "later": 3}
    restarted.close()


def open_paywall_view(client):
    paywall = client.call("get_paywall", {"placement_id": "onboarding"})
    view = client.call("create_paywall_view", {"paywall": paywall})
    client.call("present_paywall_view", {"view_id": view["id"]})
    drain(client)
    return view["id"]


def test_a_purchase_whose_access_cannot_be_kept_is_reported_as_failed(tiny_tmpfs):
    store = tiny_tmpfs / "store"
    client = paywire.Client(config(store))
    view_id = open_paywall_view(client)
    filler = fill(tiny_tmpfs)

    client.call("paywall_view_make_purchase", {"view_id": view_id, "product_id": MONTHLY})
    events = [e for e in drain(client) if e["event"] != "log"]
    assert [e["event"] for e in events] == ["paywall_view_did_start_purchase", "paywall_view_did_fail_purchase"]
    assert_names(paywire.PaywireError("FAILED", events[1]["error"]), store / "profile.json")
    assert client.call("get_profile")["access_levels"] == {}

    filler.unlink()
    client.call("paywall_view_make_purchase", {"view_id": view_id, "product_id": MONTHLY})
    finished = [e for e in drain(client) if e["event"] == "paywall_view_did_finish_purchase"]
    assert finished[0]["purchase_result"]["profile"]["access_levels"]["premium"]["is_active"] is True
    client.close()


def test_a_restore_that_cannot_be_kept_is_reported_as_failed(tiny_tmpfs):
    store = tiny_tmpfs / "store"
    store_config = dict(config(store)["store"], restore={"type": "success", "product_ids": [MONTHLY]})
    client = paywire.Client(config(store, store=store_config))
    view_id = open_paywall_view(client)
    fill(tiny_tmpfs)

    client.call("paywall_view_restore", {"view_id": view_id})
    events = [e for e in drain(client) if e["event"] != "log"]
    assert [e["event"] for e in events] == ["paywall_view_did_start_restore", "paywall_view_did_fail_restore"]
    assert_names(paywire.PaywireError("FAILED", events[1]["error"]), store / "profile.json")
    assert client.call("get_profile")["access_levels"] == {}
    client.close()


def test_an_onboarding_answer_that_cannot_be_kept_is_not_accepted(tiny_tmpfs):
    store = tiny_tmpfs / "store"
    client = paywire.Client(config(store))
    assert [e["event"] for e in drain(client)] == ["did_load_latest_profile"]  # the snapshot every client starts with
    onboarding = client.call("get_onboarding", {"placement_id": "welcome"})
    view = client.call("create_onboarding_view", {"onboarding": onboarding})
    message = {"element_id": "name", "params": {"type": "input", "value": {"type": "text", "value": "Ada"}},
               "meta": {"onboarding_id": onboarding["onboarding_id"], "screen_cid": "s1", "screen_index": 0, "total_screens": 2}}
    filler = fill(tiny_tmpfs)

    answer = client.call("onboarding_view_ingest", {"view_id": view["id"], "message": message})
    assert answer["accepted"] is False
    assert answer["error"]["code"] == "storage_failed"
    assert answer["error"]["details"]["path"].startswith(str(store / "onboarding-answers-"))
    assert [e["event"] for e in drain(client) if e["event"] != "log"] == ["onboarding_did_fail_with_error"]
    state = {"onboarding_id": onboarding["onboarding_id"]}
    assert client.call("get_onboarding_state", state)["answers"] == {}

    filler.unlink()
    assert client.call("onboarding_view_ingest", {"view_id": view["id"], "message": message})["accepted"] is True
    assert list(client.call("get_onboarding_state", state)["answers"]) == ["name"]
    client.close()


BACKEND_PLACEMENT = {
    "response_created_at": 1900000000000,
    "placement": {"audience_name": "All Users", "revision": 9, "ab_test_name": "remote",
                  "placement_audience_version_id": "remote-v9",
                  "variations": [{"variation_id": "remote-a", "paywall_id": "pw-remote", "paywall_name": "Remote",
                                  "weight": 100, "products": [MONTHLY]}]},
}


def host_request(client):
    for event in client.events(2.0):
        if event["event"] == "host_request":
            return event
    raise AssertionError("no host_request")


def call_result(client, call_id):
    """The call_result event of `call_id`, and the log events that came before it."""
    logs = []
    for event in client.events(2.0):
        if event["event"] == "call_result" and event["call_id"] == call_id:
            return event, logs
        if event["event"] == "log":
            logs.append(event)
    raise AssertionError("no call_result")


def test_a_fetched_placement_the_disk_refuses_is_served_but_not_kept(tiny_tmpfs):
    store = tiny_tmpfs / "store"
    client = paywire.Client(config(store, transport={"type": "host", "base_url": "https://api.test"}, refresh_profile_on_start=False))
    fill(tiny_tmpfs)

    call_id = client.call_async("get_paywall", {"placement_id": "onboarding"})
    request = host_request(client)
    client.call("host_respond", {"request_id": request["request_id"], "result": {
        "status": 200, "headers": [["content-type", "application/json"]], "body": json.dumps(BACKEND_PLACEMENT)}})
    result, logs = call_result(client, call_id)
    served = result["envelope"]["success"]
    assert (served["variation_id"], served["response_created_at"]) == ("remote-a", 1900000000000)
    cache_errors = [log for log in logs if log["details"].get("code") == "storage_failed"]
    assert len(cache_errors) == 1 and cache_errors[0]["level"] == "error"
    assert cache_errors[0]["details"]["path"].startswith(str(store / "placement-cache-"))
    assert not [name for name in os.listdir(store) if name.startswith("placement-cache-")]

    # Not kept in memory either: a cache-first call still has to ask the backend.
    call_id = client.call_async("get_paywall", {"placement_id": "onboarding", "fetch_policy": "return_cache_data_else_load"})
    request = host_request(client)
    client.call("host_respond", {"request_id": request["request_id"], "error": {"message": "offline"}})
    assert call_result(client, call_id)[0]["envelope"]["success"]["variation_id"] != "remote-a"
    client.close()


BACKEND_PROFILE = {"profile": {"access_levels": {"premium": {
    "vendor_product_id": "web_annual", "activated_at": "2024-01-01T00:00:00.000Z", "expires_at": "2099-01-01T00:00:00.000Z"}}}}


def test_a_backend_profile_the_disk_refuses_is_not_merged_nor_remembered_as_seen(tiny_tmpfs):
    store = tiny_tmpfs / "store"
    client = paywire.Client(config(store, transport={"type": "host", "base_url": "https://api.test"}, refresh_profile_on_start=False, log_level="warn"))
    fill(tiny_tmpfs)

    call_id = client.call_async("get_profile")
    request = host_request(client)
    client.call("host_respond", {"request_id": request["request_id"], "result": {
        "status": 200, "headers": [["etag", "\"p1\""]], "body": json.dumps(BACKEND_PROFILE)}})
    result, logs = call_result(client, call_id)
    assert result["envelope"]["success"]["access_levels"] == {}
    served_by_device = [log for log in logs if log["details"].get("source") == "device"]
    assert served_by_device and served_by_device[0]["details"]["underlying_error"] == "storage_failed"
    assert [log for log in logs if log["details"].get("code") == "storage_failed"][0]["details"]["path"] == str(store / "profile.json")

    # The answer was not kept, so it was not seen either: the next request revalidates nothing.
    client.call_async("get_profile")
    headers = dict(host_request(client)["payload"]["headers"])
    assert "if-none-match" not in headers
    client.close()


def test_a_client_that_cannot_write_its_first_profile_fails_to_start_and_frees_the_directory(tiny_tmpfs):
    filler = fill(tiny_tmpfs)
    store = tiny_tmpfs / "store"
    error = refused(paywire.Client, config(store))
    assert_names(error, store / "profile.json")
    assert temporary_files(store) == []
    filler.unlink()
    paywire.Client(config(store)).close()


def test_a_read_only_filesystem_refuses_to_start_naming_the_outbox(tiny_tmpfs):
    """The outbox promises that a recorded event is kept before its call returns; on a disk
    that cannot keep anything the client says so at the start, not at every later call."""
    store = tiny_tmpfs / "store"
    client = paywire.Client(config(store))
    client.call("update_profile", {"custom_attributes": {"kept": 1}})
    client.close()
    remounted = os.system(f"mount -o remount,ro '{tiny_tmpfs}'")
    if remounted != 0:
        pytest.skip("this machine refused to remount the tmpfs read-only")

    before = sorted(os.listdir(store))
    error = refused(paywire.Client, config(store))
    assert_names(error, store / "outbox.sqlite")
    assert "read-only" in error.details["underlying_error"].lower()
    assert sorted(os.listdir(store)) == before
    assert json.loads((store / "profile.json").read_text())["custom_attributes"] == {"kept": 1}
    error = refused(paywire.Client, config(tiny_tmpfs / "new"))
    assert error.code == "storage_failed" and error.details["path"] == str(tiny_tmpfs / "new")


def test_a_read_only_directory_refuses_to_start_naming_the_file_and_changes_nothing():
    parent = tempfile.mkdtemp(prefix="paywire-read-only-")
    try:
        os.chmod(parent, 0o755)  # `nobody` must reach the directories inside
        store, empty = os.path.join(parent, "store"), os.path.join(parent, "empty")
        client = paywire.Client(config(store))
        client.call("update_profile", {"custom_attributes": {"kept": 1}})
        client.close()
        os.mkdir(empty)
        if os.geteuid() == 0:
            for directory in (store, empty):
                for name in [directory] + [os.path.join(directory, entry) for entry in os.listdir(directory)]:
                    os.chown(name, 65534, 65534)
        before = sorted(os.listdir(store))
        os.chmod(store, 0o500)
        os.chmod(empty, 0o500)

        child = start_child("read-only", store, empty)
        lines = {key: value for line in iter(lambda: child.stdout.readline(), "") for key, value in json.loads(line).items()}
        assert child.wait(timeout=60) == 0, child.stderr.read()
        # The lock file exists, so the directory can be owned; the outbox cannot be written.
        assert (lines["start"]["error"], lines["start"]["details"]["path"]) == ("storage_failed", os.path.join(store, "outbox.sqlite"))
        assert (lines["new_directory"]["error"], lines["new_directory"]["details"]["path"]) == ("storage_failed", os.path.join(store, "inner"))
        assert (lines["no_lock_file"]["error"], lines["no_lock_file"]["details"]["path"]) == ("storage_failed", os.path.join(empty, "paywire.lock"))
        assert lines["listing"] == before
    finally:
        for directory in ("store", "empty"):
            if os.path.isdir(os.path.join(parent, directory)):
                os.chmod(os.path.join(parent, directory), 0o700)
        shutil.rmtree(parent)

