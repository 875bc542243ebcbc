"""A device reaches its own profile only (docs/operations/security.md, issue 44): the server
mints a profile's credential at its first contact (x-paywire-profile-credential, once), issues
it again while no request has carried one, and from then on refuses every device route that
names the profile, in its path or its body, without that credential. A second device holding
only the app key is refused on the first one's profile; the library keeps its credential in
storage_dir (0600), sends it, and finds it again after a restart. Runs on both engines (make
integration, make integration-postgres)."""
import json
import os
import pathlib
import stat
import time

import pytest

import paywire
from conftest import DevServer, event_id, purchase, record, transaction

APP_KEY = "app-key-public-in-every-copy"
HEADER = "x-paywire-profile-credential"
BUNDLE = pathlib.Path(__file__).resolve().parents[2] / "examples/bundle.json"


@pytest.fixture(scope="module")
def server():
    running = DevServer("--app-key", APP_KEY)
    yield running
    running.stop()


def device(server, path, body=None, credential=None, method=None, profile_id="integration-test"):
    """A device's request: the app key, and a profile's credential when given."""
    headers = {"authorization": f"Api-Key {APP_KEY}", "x-paywire-profile-id": profile_id}
    if credential:
        headers[HEADER] = credential
    return server.call(method or ("GET" if body is None else "POST"), path, body, headers=headers)


def held(server, profile_id):
    """A profile made a device's: minted by a first request, then its credential used once."""
    status, headers, _ = device(server, f"/v1/profiles/{profile_id}")
    assert status == 404 and len(headers[HEADER]) == 43, (status, headers)
    credential = headers[HEADER]
    status, headers, _ = device(server, f"/v1/profiles/{profile_id}", credential=credential)
    assert status == 404 and HEADER not in headers
    return credential


def identity(profile_id, customer_user_id, **extra):
    return {"event_id": event_id(), "profile_id": profile_id, "customer_user_id": customer_user_id, **extra}


def test_the_first_contact_mints_a_credential_and_a_pending_one_is_issued_again(server):
    status, headers, _ = device(server, "/v1/profiles/p-mint")
    first = headers[HEADER]
    assert status == 404 and len(first) == 43
    # Its answer lost, the device asks again without one: another, and the first is void.
    status, headers, _ = device(server, "/v1/profiles/p-mint")
    second = headers[HEADER]
    assert status == 404 and second != first
    status, headers, body = device(server, "/v1/profiles/p-mint", credential=first)
    assert status == 404 and headers[HEADER] not in (first, second)
    latest = headers[HEADER]
    # Used once, it is the profile's: no other request reaches the profile.
    assert device(server, "/v1/profiles/p-mint", credential=latest)[0] == 404
    status, _, body = device(server, "/v1/profiles/p-mint")
    assert status == 401 and body["error"]["code"] == "profile_credential_required"
    for other in (first, second, "not-a-credential"):
        status, headers, body = device(server, "/v1/profiles/p-mint", credential=other)
        assert status == 401 and body["error"]["code"] == "profile_credential_invalid" and HEADER not in headers
        assert latest not in json.dumps(body) and other not in json.dumps(body)


def test_a_second_device_with_the_app_key_opens_none_of_the_first_devices_doors(server):
    mine = held(server, "p-first")
    theirs = held(server, "p-second")
    doors = [
        ("GET", "/v1/profiles/p-first", None),
        ("POST", "/v1/events", {"records": [record("p-first")]}),
        ("POST", "/v1/purchases", purchase("p-first", "tx-cred-1")),
        ("POST", "/v1/restores", {"event_id": event_id(), "profile_id": "p-first", "transactions": [transaction("tx-cred-2")]}),
        ("PUT", "/v1/profiles/p-first/attributes", {"event_id": event_id(), "profile_id": "p-first", "attributes": {"email": "x@y.z"}}),
        ("PUT", "/v1/profiles/p-first/integration-ids",
         {"event_id": event_id(), "profile_id": "p-first", "integration_identifiers": {"one_signal_player_id": "x"}}),
        ("POST", "/v1/attribution", {"event_id": event_id(), "profile_id": "p-first", "source": "adjust", "attribution": {"a": 1}}),
        ("POST", "/v1/profiles/p-first/identity", identity("p-first", "someone-else")),
        ("POST", "/v1/offers/sign", {"profile_id": "p-first", "vendor_product_id": "premium_monthly", "offer_id": "o",
                                     "offer_type": "promotional"}),
        ("POST", "/v1/redemptions", {"token": "t" * 43, "profile_id": "p-first"}),
    ]
    for method, path, body in doors:
        for credential, code in ((None, "profile_credential_required"), (theirs, "profile_credential_invalid")):
            status, headers, answer = device(server, path, body, credential=credential, method=method, profile_id="p-second")
            assert status == 401 and answer["error"]["code"] == code, (method, path, status, answer)
            assert HEADER not in headers
    # Nothing of theirs was stored under the first device's profile; its own credential works.
    assert server.control("GET", "events?profile_id=p-first")["events"] == []
    assert device(server, "/v1/events", {"records": [record("p-first")]}, credential=mine)[0] == 200
    assert device(server, "/v1/profiles/p-first/attributes",
                  {"event_id": event_id(), "profile_id": "p-first", "attributes": {"email": "me@example.com"}},
                  credential=mine, method="PUT")[0] == 200


def test_a_batch_opens_one_held_profile_per_request(server):
    one, two = held(server, "p-batch-1"), held(server, "p-batch-2")
    batch = {"records": [record("p-batch-1"), record("p-batch-2")]}
    for credential in (one, two):
        status, _, body = device(server, "/v1/events", batch, credential=credential)
        assert status == 401 and body["error"]["code"] == "profile_credential_invalid"
    # A profile no device holds yet may ride along: it is minted by its own next request.
    status, headers, _ = device(server, "/v1/events", {"records": [record("p-batch-1"), record("p-batch-new")]}, credential=one)
    assert status == 200 and HEADER not in headers


def test_a_body_naming_hundreds_of_profiles_is_checked_whole_and_a_held_one_still_guarded(server):
    # 600 profiles: the door reads their credentials 500 at a time (one read each cost 25 ms a
    # batch of 100, make bench), then the batch reader refuses more than 100 records.
    many = {"records": [record(f"p-many-{i}") for i in range(600)]}
    status, _, body = device(server, "/v1/events", many)
    assert status == 400 and body["error"]["code"] == "invalid_request", body
    # One held profile among them is still guarded by its credential.
    held(server, "p-many-held")
    status, _, body = device(server, "/v1/events", {"records": many["records"][:50] + [record("p-many-held")]})
    assert status == 401 and body["error"]["code"] == "profile_credential_required"


def test_an_identity_that_moves_the_device_brings_the_customers_profile_credential(server):
    first = held(server, "p-customer")
    status, _, _ = device(server, "/v1/profiles/p-customer/identity", identity("p-customer", "c-cred"), credential=first)
    assert status == 200
    second = held(server, "p-new-install")
    status, headers, body = device(server, "/v1/profiles/p-new-install/identity", identity("p-new-install", "c-cred"),
                                   credential=second)
    assert status == 200 and body["profile_id"] == "p-customer"
    handed = headers[HEADER]
    assert handed not in (first, second)
    # Both devices reach the customer's profile, each with its own credential; a third has none.
    for credential in (first, handed):
        assert device(server, "/v1/profiles/p-customer", credential=credential)[0] in (200, 404)
    assert device(server, "/v1/profiles/p-customer", credential=second)[0] == 401


def test_a_refused_claim_hands_over_no_credential(tmp_path):
    server = DevServer("--app-key", APP_KEY, "--identity-secret", "identity-secret-of-the-apps-backend-0123456789",
                       "--identity-audience", "paywire-test",
                       "--data", str(tmp_path / "data"))
    try:
        first = held(server, "p-proven")
        assert device(server, "/v1/profiles/p-proven/identity", identity("p-proven", "c-proven"), credential=first)[0] == 422
        second = held(server, "p-claimer")
        status, headers, body = device(server, "/v1/profiles/p-claimer/identity", identity("p-claimer", "c-proven"),
                                       credential=second)
        assert status == 422 and body["error"]["code"] == "identity_unverified" and HEADER not in headers
    finally:
        server.stop()


def _profile_logs(client, timeout=0.5):
    return [event for event in client.events(timeout) if event["event"] == "log"]


def test_the_library_keeps_sends_and_finds_its_credential_again_after_a_restart(devserver, tmp_path):
    storage = tmp_path / "device"
    config = {"profile_id": "p-library", "storage_dir": str(storage), "refresh_profile_on_start": False,
              "transport": {"type": "http", "base_url": devserver.url, "request_timeout_ms": 3000}}
    client = paywire.Client(config)
    client.call("refresh_profile")
    client.call("refresh_profile")
    seen = _profile_logs(client)
    client.close()
    kept = storage / "profile-credentials.json"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    credential = json.loads(kept.read_text())["p-library"]
    assert len(credential) == 43 and credential not in json.dumps(seen)
    # The second refresh carried it: the profile is the device's now.
    status, _, body = devserver.call("GET", "/v1/profiles/p-library", operator=False)
    assert status == 401 and body["error"]["code"] == "profile_credential_required"
    # After a restart the device still reaches its profile.
    again = paywire.Client(config)
    try:
        again.call("refresh_profile")
        assert json.loads(kept.read_text())["p-library"] == credential
    finally:
        again.close()


def test_records_of_a_profile_another_device_holds_are_refused_not_the_api_key(devserver, tmp_path):
    status, headers, _ = devserver.call("GET", "/v1/profiles/p-taken", operator=False)
    devserver.call("GET", "/v1/profiles/p-taken", operator=False, headers={HEADER: headers[HEADER]})
    client = paywire.Client({"profile_id": "p-taken", "storage_dir": str(tmp_path / "other"), "refresh_profile_on_start": False,
                             "transport": {"type": "http", "base_url": devserver.url, "request_timeout_ms": 3000},
                             "fallback": {"path": str(BUNDLE)}})
    try:
        paywall = client.call("get_paywall", {"placement_id": "onboarding", "fetch_policy": "return_cache_data_else_load"})
        client.call("log_show_paywall", {"paywall": paywall})
        # The backend will never take them from this device: they are dropped, and delivery goes on.
        assert client.call("flush_analytics", {"timeout_ms": 10000}) == {"remaining": 0}
        refused = [event for event in _profile_logs(client) if event["level"] == "error"]
        assert refused and "401" in refused[-1]["message"]
    finally:
        client.close()
    assert devserver.control("GET", "events?profile_id=p-taken")["events"] == []
