#!/usr/bin/env python3
"""Checks api/openapi.yaml itself, and that the placements the conformance vectors hand the
core as backend answers are ones the wire schema accepts too (bundle_placement), so the spec
and the bundle format cannot drift. Every other exchange in the vectors is checked against the
spec by the driver itself (--openapi, tests/conformance/backend_bodies.py)."""
import json
import sys
from pathlib import Path

import jsonschema
import yaml
from openapi_spec_validator import validate

ROOT = Path(__file__).resolve().parents[2]


class _UniqueKeys(yaml.SafeLoader):
    """YAML's loader keeps the last of two equal keys without a word: a response declared twice
    (two "401"s) would hide one of them."""


def _mapping(loader, node):
    keys = [loader.construct_object(key) for key, _ in node.value]
    twice = sorted({str(key) for key in keys if keys.count(key) > 1})
    if twice:
        sys.exit(f"api/openapi.yaml line {node.start_mark.line + 1}: {twice} given twice in one mapping")
    return yaml.SafeLoader.construct_mapping(loader, node, deep=True)


_UniqueKeys.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
spec = yaml.load((ROOT / "api" / "openapi.yaml").read_text(), Loader=_UniqueKeys)
validate(spec)
wire = json.loads((ROOT / "schema" / "paywire.schema.json").read_text())
placement_schemas = {
    "placements": {"$ref": "#/$defs/bundle_placement", "$defs": wire["$defs"]},
    "onboardings": {"$ref": "#/$defs/bundle_onboarding_placement", "$defs": wire["$defs"]},
}


def requested_collections(case):
    """request_id -> the API collection its host_request asked (placements, onboardings, ...)."""
    collections = {}
    for step in case["steps"]:
        for event in step.get("events", []):
            url = event.get("payload", {}).get("url")
            if event.get("event") == "host_request" and url:
                collections[event["request_id"]] = url.split("/v1/")[1].split("/")[0]
    return collections


def bodies(value):
    """(request_id, body) of every 200 answer a case hands the core as text."""
    if isinstance(value, dict):
        result = value.get("result")
        if isinstance(result, dict) and result.get("status") == 200 and isinstance(result.get("body"), str):
            yield value.get("request_id"), result["body"]
        for item in value.values():
            yield from bodies(item)
    elif isinstance(value, list):
        for item in value:
            yield from bodies(item)


# Any operation can be refused for a malformed request head (400) or a missing API key (401), or
# be unavailable (429, 5XX): each must say so, or a client reading the spec would not expect it.
for path, operations in spec["paths"].items():
    for method, operation in operations.items():
        missing = {"400", "401", "429", "5XX"} - set(operation["responses"])
        if missing:
            sys.exit(f"{method.upper()} {path} does not declare {sorted(missing)}")

# Every operation names who may call it, itself (no default at the top would cover a new route
# that forgot): its security schemes; an operator route its scopes too, and its 403.
if "security" in spec:
    sys.exit("api/openapi.yaml has a top-level security: each operation names its own")
schemes = set(spec["components"]["securitySchemes"])
for path, operations in spec["paths"].items():
    for method, operation in operations.items():
        name = f"{method.upper()} {path}"
        if "security" not in operation:
            sys.exit(f"{name} names no security: every route says who may call it")
        named = {scheme for requirement in operation["security"] for scheme in requirement}
        if named - schemes:
            sys.exit(f"{name} names security schemes the spec does not define: {sorted(named - schemes)}")
        if not named and not operation.get("x-paywire-proof"):
            sys.exit(f"{name} takes no credential and names no x-paywire-proof (what in the request proves its sender)")
        if "401" not in operation["responses"]:
            sys.exit(f"{name} does not declare its 401 (a request without what its door takes)")
        if "OperatorKey" in named:
            if not operation.get("x-paywire-scopes"):
                sys.exit(f"{name} takes an operator key and names no x-paywire-scopes")
            if "403" not in operation["responses"]:
                sys.exit(f"{name} takes an operator key and does not declare its 403 (a key without the scope)")

checked = 0
cases = [case for path in sorted((ROOT / "tests" / "conformance" / "vectors").glob("*.json"))
         for case in json.loads(path.read_text())["cases"]]
for case in cases:
    collections = requested_collections(case)
    for request_id, body in bodies(case):
        collection = collections.get(request_id)
        document = json.loads(body)
        if collection not in placement_schemas or "placement" not in document:
            continue  # not a placement, or garbage sent on purpose (the driver knows it is off_spec)
        jsonschema.Draft202012Validator(placement_schemas[collection]).validate(document["placement"])
        checked += 1
if checked == 0:
    sys.exit("no placement answers found in the vectors: the check would prove nothing")
print(f"api: openapi.yaml valid, {sum(len(o) for o in spec['paths'].values())} operations each declaring 400, 401, 429 "
      f"and 5XX; {checked} placement answers in the vectors match the wire schema")
