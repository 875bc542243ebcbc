#!/usr/bin/env python3
"""Checks api/openapi.yaml, and that every backend body the conformance vectors send is a
valid placement response: the spec's PlacementResponse shape and the wire schema's
bundle_placement. Bodies a vector sends on purpose as garbage (they are not placement
responses at all) are the ones without a "placement" key, and are skipped."""
import json
import sys
from pathlib import Path

import jsonschema
import yaml
from openapi_spec_validator import validate

ROOT = Path(__file__).resolve().parents[2]
spec = yaml.safe_load((ROOT / "api" / "openapi.yaml").read_text())
validate(spec)
wire = json.loads((ROOT / "schema" / "paywire.schema.json").read_text())
response_schema = spec["components"]["schemas"]["PlacementResponse"]
profile_schema = {**spec["components"]["schemas"]["ProfileResponse"], "components": spec["components"]}
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
    """(request_id, body) of every 200 answer a case hands the core."""
    if isinstance(value, dict):
        result = value.get("result")
        if isinstance(result, dict) and result.get("status") == 200 and isinstance(result.get("body"), str):
            yield value.get("request_id"), result["body"]
        for item in value.values():
            yield from bodies(item)
    elif isinstance(value, list):
        for item in value:
            yield from bodies(item)


def openapi_nullable(schema):
    """OpenAPI 3.0's `nullable: true` as JSON Schema's type lists, to validate with jsonschema."""
    if isinstance(schema, dict):
        schema = {key: openapi_nullable(value) for key, value in schema.items()}
        if schema.pop("nullable", False):
            schema["type"] = [schema["type"], "null"]
        return schema
    if isinstance(schema, list):
        return [openapi_nullable(item) for item in schema]
    return schema


# Every operation can be refused for a malformed request head (400) or a missing API key (401):
# each must say so, or a client reading the spec would not expect them.
for path, operations in spec["paths"].items():
    for method, operation in operations.items():
        missing = {"400", "401"} - set(operation["responses"])
        if missing:
            sys.exit(f"{method.upper()} {path} does not declare {sorted(missing)}")

profile_validator = jsonschema.Draft7Validator(openapi_nullable(profile_schema))
checked = 0
profiles = 0
cases = [case for path in sorted((ROOT / "tests" / "conformance" / "vectors").glob("*.json"))
         for case in json.loads(path.read_text())["cases"]]
for case in cases:
    collections = requested_collections(case)
    for request_id, body in bodies(case):
        document = json.loads(body)
        if "profile" in document:
            # A case about failures may send a malformed profile on purpose; every other
            # profile body must be a valid ProfileResponse.
            errors = list(profile_validator.iter_errors(document))
            if errors and "failure" not in case["id"]:
                sys.exit(f"{case['id']}: profile body does not match ProfileResponse: {errors[0].message}")
            profiles += 0 if errors else 1
            continue
        if "placement" not in document:
            continue
        jsonschema.validate(document, response_schema)
        collection = collections.get(request_id, "placements")
        jsonschema.Draft202012Validator(placement_schemas[collection]).validate(document["placement"])
        checked += 1
if profiles == 0:
    sys.exit("no valid profile bodies found in the vectors")
if checked == 0:
    sys.exit("no backend bodies found in the vectors: the check would prove nothing")
print(f"api: openapi.yaml valid, {sum(len(o) for o in spec['paths'].values())} operations each declaring 400 and 401; {checked} placement bodies in the vectors match it and the wire schema; "
      f"{profiles} profile bodies match ProfileResponse")
