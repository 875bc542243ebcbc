"""Who may open which door (docs/operations/security.md), walked from api/openapi.yaml: every
operation is called with no credential, with credentials of the wrong kind and, behind an
operator door, with an operator key holding every scope but the one the route needs. Each
answers 401 or 403, and nothing echoes a secret. An operation added to the spec is walked
without a line here, so a route cannot be left open by forgetting it. The routes outside the
spec (the dashboard, the development routes) are walked the same way, and none of it is
opened by --dev: the server here runs in development mode."""
import json

import pytest

from conftest import DevServer
from operator_key import ALL_SCOPES, OperatorKey
from test_routes_match_spec import spec_operations

APP_KEY = "app-key-public-in-every-copy"
#: Stripe's webhook route checks signatures with it (without one it answers 503, before any check).
STRIPE_SECRET = "whsec_doors"
#: One key with every scope, and per scope one with every scope but it.
EVERYTHING = OperatorKey("everything")
WITHOUT = {scope: OperatorKey("without-" + scope.replace(":", "-"), [s for s in ALL_SCOPES if s != scope]) for scope in ALL_SCOPES}
ONLY = {scope: OperatorKey("only-" + scope.replace(":", "-"), [scope]) for scope in ALL_SCOPES}
SECRETS = [APP_KEY, STRIPE_SECRET, EVERYTHING.secret, *(key.secret for key in [*WITHOUT.values(), *ONLY.values()])]

#: The dashboard's pages: a browser without a session is sent to sign in; a wrong key is a 401.
PAGES = [
    ("GET", "/dashboard", "dashboard"),
    ("GET", "/dashboard/profiles/p-doors", "customers:read"),
    ("GET", "/dashboard/previews/onboarding/onboarding-monthly-first", "dashboard"),
    ("POST", "/dashboard/logout", "dashboard"),
    ("GET", "/dashboard/audit", "audit:read"),
]
#: The routes the spec does not describe, each with the scope it needs.
OUTSIDE_THE_SPEC = [
    ("GET", "/_dev/stats", "development"),
    ("GET", "/_dev/faults", "development"),
    ("POST", "/_dev/faults", "development"),
    ("POST", "/_dev/reset", "development"),
    ("PUT", "/_dev/profiles/p-doors", "development"),
    ("GET", "/_dev/events", "development"),
    ("GET", "/_dev/events/summary", "development"),
    ("GET", "/_dev/notifications", "development"),
    ("GET", "/_dev/profile-data?profile_id=p-doors", "development"),
    ("GET", "/_dev/offers/key", "development"),
    ("GET", "/_dev/purchases", "development"),
]


@pytest.fixture(scope="module")
def server():
    keys = [arg for key in [EVERYTHING, *WITHOUT.values(), *ONLY.values()] for arg in key.server_args()]
    # Every route is knocked on with wrong keys here, from one address: the limit on guessing
    # keys (tests/integration/test_hostile_requests.py) is not what this file is about.
    running = DevServer("--app-key", APP_KEY, "--stripe-webhook-secret", STRIPE_SECRET, "--operator-key-guesses", "100000",
                        *keys, operator=False)
    yield running
    running.stop()


def concrete(template):
    return template.replace("{placement_id}", "onboarding").replace("{profile_id}", "p-doors") \
        .replace("{checkout_session_id}", "cs_doors")


def body_for(method, path):
    if method == "GET":
        return None
    # A signed payload that proves nothing: the App Store route's credential is inside the body.
    return {"signedPayload": "e30.e30.e30"} if path == "/v1/notifications/app-store" else {}


def ask(server, method, path, authorization):
    headers = {"authorization": authorization} if authorization else None
    status, _, body = server.call(method, path, body_for(method, path), headers=headers, operator=False)
    text = body.decode(errors="replace") if isinstance(body, bytes) else json.dumps(body)
    for secret in SECRETS:
        assert secret not in text, f"{method} {path} echoed a secret"
    return status, body


def wrong_kinds(door):
    """Credentials of another kind than the door takes (or a wrong one of its kind)."""
    app, operator = f"Api-Key {APP_KEY}", "Bearer " + EVERYTHING.secret
    if door == "app":
        return [operator, "Api-Key not-this-apps-key", f"Bearer {APP_KEY}", APP_KEY]
    if door.startswith(("operator:", "operator-page:")) or door == "play-push":
        return [app, "Bearer not-an-operator-key", f"Api-Key {EVERYTHING.secret}", EVERYTHING.secret]
    return [app, operator]


def walk(server, method, path, door):
    without = 303 if door.startswith("operator-page:") else 401
    assert ask(server, method, path, None)[0] == without, f"{method} {path} opened without a credential"
    for authorization in wrong_kinds(door):
        status, body = ask(server, method, path, authorization)
        assert status == 401, f"{method} {path} ({door}) opened to {authorization.split(' ')[0]}: {status} {body}"
    if door.startswith(("operator:", "operator-page:")):
        scope = door.split(":", 1)[1]
        status, body = ask(server, method, path, "Bearer " + WITHOUT[scope].secret)
        assert status == 403 and body["error"]["code"] == "insufficient_scope", (method, path, status, body)
        assert WITHOUT[scope].id in body["error"]["message"] and scope in body["error"]["message"]


def test_every_operation_of_the_spec_refuses_no_credential_the_wrong_kind_and_the_wrong_scope(server):
    operations = spec_operations()
    assert len(operations) == 19
    for line, door in sorted(operations.items()):
        method, template = line.split(" ", 1)
        walk(server, method, concrete(template), door)


def test_the_right_credential_opens_each_door_and_only_its_scope_is_needed(server):
    for line, door in sorted(spec_operations().items()):
        method, template = line.split(" ", 1)
        if door == "app":
            authorization = f"Api-Key {APP_KEY}"
        elif door.startswith("operator:"):
            authorization = "Bearer " + ONLY[door.split(":", 1)[1]].secret
        else:
            continue   # a store's own signature: its tests make real ones
        status, body = ask(server, method, concrete(template), authorization)
        refused = status == 401 or (status == 403 and body.get("error", {}).get("code") == "insufficient_scope")
        assert not refused, f"{line} refused its own credential: {status} {body}"


@pytest.mark.parametrize("method,path,scope", OUTSIDE_THE_SPEC)
def test_the_dashboard_and_the_development_routes_are_operator_doors_even_with_dev(server, method, path, scope):
    walk(server, method, path, "operator:" + scope)
    if method == "GET":
        status, _ = ask(server, method, path, "Bearer " + ONLY[scope].secret)
        assert status not in (401, 403), (path, status)


@pytest.mark.parametrize("method,path,scope", PAGES)
def test_the_dashboards_pages_send_a_browser_to_sign_in_and_refuse_wrong_keys(server, method, path, scope):
    walk(server, method, path, "operator-page:" + scope)
    status, headers, _ = server.call(method, path, body_for(method, path), operator=False)
    assert headers["location"].startswith("/dashboard/login")
    if method == "GET":
        status, _ = ask(server, method, path, "Bearer " + ONLY[scope].secret)
        assert status not in (401, 403), (path, status)


def test_health_readiness_and_metrics_take_no_credential(server):
    for path in ("/healthz", "/readyz", "/metrics"):
        assert ask(server, "GET", path, None)[0] == 200


def test_without_app_keys_the_device_routes_are_open_and_the_operator_routes_still_shut():
    """A server given no app key serves devices without one (every app built before keys
    existed); an operator route stays shut with no operator key configured at all."""
    bare = DevServer(operator=False)
    try:
        assert bare.call("GET", "/v1/placements/onboarding", operator=False)[0] == 200
        for path in ("/v1/experiments/onboarding/results", "/dashboard", "/_dev/stats"):
            assert bare.call("GET", path, operator=False)[0] in (401, 303), path
            assert bare.call("GET", path, headers={"authorization": "Bearer anything"})[0] == 401, path
    finally:
        bare.stop()


def test_operator_key_configuration_mistakes_stop_the_server_naming_them(tmp_path):
    digest = "0" * 64
    for argument, says in [
        (f"k1:{digest}:results:reed", "'results:reed' is not a scope"),
        ("k1:abc:results:read", "64 hex digits"),
        (f"k1:{digest}:", "names no scope"),
        ("k1", "ID:SHA256HEX:SCOPE"),
    ]:
        with pytest.raises(RuntimeError) as refused:
            DevServer("--operator-key-sha256", argument, operator=False)
        assert says in str(refused.value), (argument, refused.value)
    with pytest.raises(RuntimeError) as twice:
        DevServer("--operator-key-sha256", f"k1:{digest}:dashboard", "--operator-key-sha256", f"k1:{'1' * 64}:dashboard",
                  operator=False)
    assert "'k1' is given twice" in str(twice.value)
    listed = tmp_path / "operators"
    key = OperatorKey("from-file", ["results:read"])
    listed.write_text("# staff keys\n\n" + key.server_args()[1] + "\n")
    server = DevServer("--operator-keys", str(listed), operator=False)
    try:
        assert server.call("GET", "/v1/experiments/onboarding/results", headers=key.headers())[0] == 200
        assert server.call("GET", "/dashboard", headers=key.headers())[0] == 403
    finally:
        server.stop()
