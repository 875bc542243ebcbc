"""Which shapes of the conformance vectors the Java and C# round-trip tests check, as JSON on
stdout (or into the file named by the first argument). The same choice as
bindings/python/tests/test_roundtrip.py, made once here so that both languages check the same
cases, and so that they need no JSON Schema validator of their own:

- values holding driver placeholders ($var, $json_text, $matches, $type, $json) are left out:
  the driver substitutes or matches them at run time; they are not wire JSON.
- results compared with `match: subset` are left out: the vector lists only some members.
- params the schema refuses are left out (some cases pass malformed params on purpose, some a
  hand-made partial paywall the library tolerates); the models follow the schema.
- every event is listed with `exact` (the step says `match: exact`): a test decodes exact ones
  and must succeed; subset ones that do not decode (members left out) it may skip.

Each entry names its place ({file, case, step, event}) rather than copying the value: the tests
read the vectors themselves, so numbers reach them as the text the vector holds.
"""
import json
import sys
from pathlib import Path

from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDERS = {"$var", "$json_text", "$matches", "$type", "$json"}


def has_placeholder(value):
    if isinstance(value, dict):
        return bool(PLACEHOLDERS & value.keys()) or any(has_placeholder(v) for v in value.values())
    if isinstance(value, list):
        return any(has_placeholder(v) for v in value)
    return False


def select():
    schema = json.loads((ROOT / "schema/paywire.schema.json").read_text())
    defs = schema["$defs"]
    validators = {}

    def valid_params(method, params):
        if method not in validators:
            validators[method] = Draft202012Validator({"$ref": f"#/$defs/params/{method}", "$defs": defs})
        return validators[method].is_valid(params)

    cases, skipped = [], {"placeholder": 0, "subset_result": 0, "params_the_schema_refuses": 0}
    for path in sorted((ROOT / "tests/conformance/vectors").glob("*.json")):
        for case in json.loads(path.read_text())["cases"]:
            for index, step in enumerate(case.get("steps", [])):
                where = {"file": path.name, "case": case["id"], "step": index}
                cases += _step_cases(step, where, valid_params, skipped, defs)
    return {"cases": cases, "skipped": skipped}


def _step_cases(step, where, valid_params, skipped, defs):
    out = []
    method, expect = step.get("call"), step.get("expect") or {}
    if method in defs["params"] and isinstance(step.get("params"), dict):
        if has_placeholder(step["params"]):
            skipped["placeholder"] += 1
        elif not valid_params(method, step["params"]):
            skipped["params_the_schema_refuses"] += 1
        else:
            out.append(dict(where, kind="params", method=method))
    if method in defs["results"] and "success" in expect:
        if expect.get("match") == "subset":
            skipped["subset_result"] += 1
        elif has_placeholder(expect["success"]):
            skipped["placeholder"] += 1
        else:
            out.append(dict(where, kind="result", method=method))
    for n, event in enumerate(step.get("events") or []):
        if isinstance(event, dict) and "event" in event:
            if has_placeholder(event):
                skipped["placeholder"] += 1
            else:
                out.append(dict(where, kind="event", event=n, exact=step.get("match") == "exact"))
    return out


if __name__ == "__main__":
    text = json.dumps(select(), indent=0)
    if len(sys.argv) > 1:
        Path(sys.argv[1]).parent.mkdir(parents=True, exist_ok=True)
        Path(sys.argv[1]).write_text(text)
    else:
        print(text)
