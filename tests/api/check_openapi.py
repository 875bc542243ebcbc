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
placement_schema = {"$ref": "#/$defs/bundle_placement", "$defs": wire["$defs"]}


def bodies(value):
    if isinstance(value, dict):
        if value.get("status") == 200 and isinstance(value.get("body"), str):
            yield value["body"]
        for item in value.values():
            yield from bodies(item)
    elif isinstance(value, list):
        for item in value:
            yield from bodies(item)


checked = 0
for path in sorted((ROOT / "tests" / "conformance" / "vectors").glob("*.json")):
    for body in bodies(json.loads(path.read_text())):
        document = json.loads(body)
        if "placement" not in document:
            continue
        jsonschema.validate(document, response_schema)
        jsonschema.Draft202012Validator(placement_schema).validate(document["placement"])
        checked += 1
if checked == 0:
    sys.exit("no backend bodies found in the vectors: the check would prove nothing")
print(f"api: openapi.yaml valid; {checked} backend bodies in the vectors match it and the wire schema")
