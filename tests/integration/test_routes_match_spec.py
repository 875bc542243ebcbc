"""The server's routes are plain Hummingbird routes written by hand (server/Sources/paywire-server/
HTTP/APIRoutes.swift); api/openapi.yaml is their test, not their source. The server lists its API
routes (`--list-routes`, `METHOD path door`) and they must be exactly the spec's operations,
both ways, each behind the door its security names: a route added without the spec, an
operation the spec names that no route answers, or a door the spec does not say, fails here. What each
route answers is checked against the spec by schemathesis (test_devserver_schemathesis.py) and
by the conformance driver for every exchange of the vectors."""
import subprocess

import yaml

from conftest import ROOT, SERVER

METHODS = {"get", "put", "post", "delete", "patch"}


def spec():
    return yaml.safe_load((ROOT / "api/openapi.yaml").read_text())


def door(operation):
    """The server's name of the door an operation's security describes (HTTP/Doors.swift)."""
    schemes = {scheme for requirement in operation["security"] for scheme in requirement}
    if schemes == {"AppKey"}:
        return "app"
    if schemes == {"OperatorKey"}:
        [scope] = operation["x-paywire-scopes"]
        return "operator:" + scope
    if schemes == {"PubSubPush", "OperatorKey"} and operation["x-paywire-scopes"] == ["notifications:write"]:
        return "play-push"
    if schemes == {"StripeSignature"} or (not schemes and operation.get("x-paywire-proof")):
        return "store-signature"
    raise AssertionError(f"{operation['operationId']}: no door has the security {sorted(schemes)}")


def spec_operations():
    """`METHOD path` of every operation, with its door."""
    return {f"{method.upper()} {path}": door(operation) for path, operations in spec()["paths"].items()
            for method, operation in operations.items() if method in METHODS}


def server_routes():
    listing = subprocess.run([SERVER, "--list-routes"], capture_output=True, text=True, timeout=60, check=True).stdout
    return dict(line.strip().rsplit(" ", 1) for line in listing.splitlines() if line.strip())


def test_every_operation_of_the_spec_is_a_route_and_every_route_is_in_the_spec():
    routes, operations = server_routes(), spec_operations()
    assert routes.keys() - operations.keys() == set(), "routes api/openapi.yaml does not have"
    assert operations.keys() - routes.keys() == set(), "operations of api/openapi.yaml no route answers"
    assert len(routes) == 19


def test_every_route_is_behind_the_door_the_spec_names():
    routes, operations = server_routes(), spec_operations()
    assert {route: routes[route] for route in operations} == operations


def test_a_request_to_each_operation_reaches_it_not_the_routers_404(devserver):
    # Each operation, called without what it needs, answers as the operation does (400, 404 of
    # the resource, 200...), never the router's `not_found` for an unknown path or a 405.
    for line in sorted(spec_operations()):
        method, template = line.split(" ", 1)
        path = template.replace("{placement_id}", "onboarding").replace("{profile_id}", "p-routes") \
            .replace("{checkout_session_id}", "cs_routes")
        status, headers, body = devserver.call(method, path, {} if method != "GET" else None)
        assert status != 405, line
        code = (body or {}).get("error", {}).get("code") if isinstance(body, dict) else None
        assert code != "not_found" or "no such resource" not in body["error"]["message"], line
