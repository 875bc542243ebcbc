"""What the reference is generated from: the method table in the Swift sources, the wire schema,
the OpenAPI spec and the conformance vectors. Pure reading; pages.py writes, checks.py judges."""
import glob
import json
import os
import re

import yaml

# How an entry of the method table names its method: `.now("name")`, `.screen("name")`,
# `MethodEntry("name")`, or an area's own helper such as `view("name")`, first thing on its line
# in Methods/*.swift.
METHOD_ENTRY = re.compile(r'^\s*(?:\.now|\.screen|MethodEntry|[a-z][A-Za-z]*)\(\s*"([a-z][a-z0-9_]*)"', re.M)


def swift_methods(methods_dir):
    """The method names registered in Sources/PaywireCore/Methods, sorted."""
    names = set()
    for path in glob.glob(os.path.join(methods_dir, "*.swift")):
        with open(path, encoding="utf-8") as source:
            names.update(METHOD_ENTRY.findall(source.read()))
    return sorted(names)


def load_schema(path):
    with open(path, encoding="utf-8") as source:
        return json.load(source)


def schema_section(schema, name):
    """A $defs map such as params, results or events, without its description."""
    section = dict(schema["$defs"].get(name, {}))
    section.pop("description", None)
    return section


def load_openapi(path):
    with open(path, encoding="utf-8") as source:
        return yaml.safe_load(source)


def routes(openapi):
    """(method, path, operation) for every operation of the spec, in the spec's order."""
    found = []
    for path, operations in openapi.get("paths", {}).items():
        for verb, operation in operations.items():
            if isinstance(operation, dict) and verb in ("get", "put", "post", "delete", "patch"):
                found.append((verb.upper(), path, operation))
    return found


def load_vectors(vectors_dir):
    """{file name: [case, ...]} of every vector file, sorted by name so picks are stable."""
    vectors = {}
    for path in sorted(glob.glob(os.path.join(vectors_dir, "*.json"))):
        with open(path, encoding="utf-8") as source:
            vectors[os.path.basename(path)] = json.load(source)["cases"]
    return vectors


def call_of(step):
    """(method, params) when the step calls a method on the main client, else None."""
    if "call" in step and "client" not in step:
        return step["call"], step.get("params", {})
    op = step.get("op")
    if isinstance(op, dict) and op.get("op") == "call" and op.get("client", "main") == "main":
        return op.get("method"), op.get("params", {})
    return None


def _rank(step, params, events_after):
    """Lower is a better example: a success shown whole, with params a reader can copy."""
    expect = step.get("expect", {})
    text = json.dumps(params)
    return (
        "success" not in expect,          # an answer to show beats a bare OK
        not events_after,                 # methods answering null speak through their events
        "$var" in text,                   # params spelled out beat values saved from a step
        expect.get("match") == "subset",  # the whole result beats a part of it
        len(text) + len(json.dumps(expect)) > 1500,  # short enough to read
    )


def candidates(vectors, method):
    """Every step calling `method` that succeeds, best example first:
    [(rank, file, case id, step index), ...]."""
    found = []
    for file, cases in vectors.items():
        for case in cases:
            for index, step in enumerate(case["steps"]):
                call = call_of(step)
                if not call or call[0] != method:
                    continue
                expect = step.get("expect", {})
                if expect.get("status", "OK") != "OK" or "error" in expect:
                    continue
                events_after = index + 1 < len(case["steps"]) and "events" in case["steps"][index + 1]
                found.append((_rank(step, call[1], events_after), file, case["id"], index))
    return sorted(found)


def find_step(vectors, file, case_id, index):
    """The step a lock entry names, or None when the case or step is gone."""
    for case in vectors.get(file, []):
        if case["id"] == case_id and index < len(case["steps"]):
            return case, case["steps"][index]
    return None


def example_of(case, index):
    """What a reference page shows of a vector step: the params, the expected answer, and the
    events the next step expects (view methods answer null and speak through events)."""
    step = case["steps"][index]
    _, params = call_of(step)
    expect = {key: value for key, value in step.get("expect", {}).items() if key != "status"}
    example = {"params": params, "expect": expect}
    following = case["steps"][index + 1] if index + 1 < len(case["steps"]) else {}
    if "events" in following:
        example["events"] = following["events"]
    return example


def error_codes(vectors, method):
    """The error codes the vectors show `method` giving, sorted."""
    codes = set()
    for cases in vectors.values():
        for case in cases:
            for step in case["steps"]:
                call = call_of(step)
                code = step.get("expect", {}).get("error", {}).get("code")
                if call and call[0] == method and code:
                    codes.add(code)
    return sorted(codes)
