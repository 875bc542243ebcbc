"""Apple's certificate policy on POST /v1/notifications/app-store over real HTTP, as Apple's App
Store Server Library applies it: by default a chain must be leaf, intermediate and root, the
intermediate must carry the marker 1.2.840.113635.100.6.2.1 and the leaf 1.2.840.113635.100.6.11.1;
the payload must name this server's app (--app-store-bundle-id) and an environment it takes
(--app-store-environments). Chains are made here by openssl; every refusal changes nothing."""
import pytest

from conftest import DevServer
from notify_helpers import BUNDLE_ID, Chain, app_store_body, premium, profile, subscribe


@pytest.fixture(scope="module")
def chains(tmp_path_factory):
    base = tmp_path_factory.mktemp("policy")
    made = {
        "marked": Chain(base / "marked"),
        "unmarked": Chain(base / "unmarked", markers=()),
        "leaf_only": Chain(base / "leaf_only", markers=("leaf",)),
        "intermediate_only": Chain(base / "intermediate_only", markers=("intermediate",)),
        "direct": Chain(base / "direct", intermediate=False, markers=("leaf",)),
    }
    # One root file trusting every chain's root: only the policy tells them apart.
    roots = base / "roots.pem"
    roots.write_text("".join(chain.root_path.read_text() for chain in made.values()))
    made["roots"] = roots
    return made


def server_with(chains, *extra):
    return DevServer("--app-store-root", str(chains["roots"]), "--app-store-bundle-id", BUNDLE_ID, *extra)


@pytest.fixture(scope="module")
def server(chains):
    server = server_with(chains)
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def clean(server):
    server.control("POST", "reset")


def post(server, body):
    return server.call("POST", "/v1/notifications/app-store", body)


def refused(server, body, code, mentions=None):
    status, _, answer = post(server, body)
    # A chain or signature that proves nothing is a 401; a proven payload wrong for this server a 400.
    unproven = code in ("malformed_jws", "untrusted_certificate", "invalid_signature")
    assert status == (401 if unproven else 400) and answer["error"]["code"] == code, answer
    if mentions:
        assert mentions in answer["error"]["message"], answer
    assert server.control("GET", "notifications")["notifications"] == []


def test_a_chain_with_apples_markers_is_taken(server, chains):
    subscribe(server, "marked", "ot-m")
    status, _, body = post(server, app_store_body(chains["marked"], "REFUND", "ot-m"))
    assert status == 200 and premium(body)["is_refund"] is True, body


def test_a_chain_without_the_markers_is_refused_by_default(server, chains):
    subscribe(server, "unmarked", "ot-u")
    _, etag, _ = profile(server, "unmarked")
    refused(server, app_store_body(chains["unmarked"], "REFUND", "ot-u"), "untrusted_certificate", "1.2.840.113635.100.6.2.1")
    refused(server, app_store_body(chains["leaf_only"], "REFUND", "ot-u"), "untrusted_certificate", "1.2.840.113635.100.6.2.1")
    refused(server, app_store_body(chains["intermediate_only"], "REFUND", "ot-u"), "untrusted_certificate",
            "1.2.840.113635.100.6.11.1")
    # A marked leaf signed by the root itself: Apple's chain always has its intermediate.
    refused(server, app_store_body(chains["direct"], "REFUND", "ot-u"), "untrusted_certificate", "leaf, intermediate and root")
    # The outer payload well signed, the transaction inside by an unmarked chain.
    refused(server, app_store_body(chains["marked"], "REFUND", "ot-u", sign_inner=chains["unmarked"].sign), "untrusted_certificate")
    assert profile(server, "unmarked", etag)[0] == 304


def test_the_marker_check_is_off_only_when_asked(chains):
    lax = server_with(chains, "--app-store-unmarked-roots")
    try:
        lax.control("POST", "reset")
        for index, name in enumerate(["unmarked", "leaf_only", "intermediate_only", "direct"]):
            subscribe(lax, f"lax-{name}", f"ot-lax-{index}")
            status, _, body = post(lax, app_store_body(chains[name], "REFUND", f"ot-lax-{index}"))
            assert status == 200 and premium(body)["is_refund"] is True, (name, body)
    finally:
        lax.stop()


def test_another_apps_data_is_refused(server, chains):
    subscribe(server, "app", "ot-app")
    _, etag, _ = profile(server, "app")
    marked = chains["marked"]
    refused(server, app_store_body(marked, "REFUND", "ot-app", data={"bundleId": "com.other.app"}), "wrong_bundle_id")
    refused(server, app_store_body(marked, "REFUND", "ot-app", transaction={"bundleId": "com.other.app"}), "wrong_bundle_id",
            "signedTransactionInfo")
    refused(server, app_store_body(marked, "REFUND", "ot-app", data={"bundleId": None}), "invalid_payload")
    assert profile(server, "app", etag)[0] == 304


def test_an_environment_the_server_does_not_take_is_refused(server, chains):
    subscribe(server, "env", "ot-env")
    marked = chains["marked"]
    # Xcode's local StoreKit testing is not taken by default.
    refused(server, app_store_body(marked, "REFUND", "ot-env", data={"environment": "Xcode"}), "wrong_environment")
    refused(server, app_store_body(marked, "REFUND", "ot-env", transaction={"environment": "Xcode"}), "wrong_environment")
    refused(server, app_store_body(marked, "DID_RENEW", "ot-env", renewal={"environment": "Xcode", "autoRenewStatus": 1}),
            "wrong_environment", "signedRenewalInfo")
    production = server_with(chains, "--app-store-environments", "Production")
    try:
        production.control("POST", "reset")
        subscribe(production, "prod", "ot-prod")
        status, _, body = post(production, app_store_body(marked, "REFUND", "ot-prod"))
        assert status == 400 and body["error"]["code"] == "wrong_environment", body
        prod = {"environment": "Production"}
        status, _, body = post(production, app_store_body(marked, "REFUND", "ot-prod", data=prod, transaction=prod))
        assert status == 200 and premium(body)["is_refund"] is True, body
    finally:
        production.stop()


def test_a_root_without_a_bundle_id_does_not_start(chains):
    with pytest.raises(Exception) as failure:
        DevServer("--app-store-root", str(chains["roots"]))
    assert "--app-store-bundle-id" in str(failure.value)
