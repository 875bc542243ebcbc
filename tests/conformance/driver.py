#!/usr/bin/env python3
"""The Paywire conformance driver: runs the vectors through any runner.

    driver.py --runner NAME [--vectors DIR] [--case ID] -- COMMAND...

A runner is a program that reads primitive ops as JSON lines on stdin and answers each with one
JSON line (see README.md beside this file). The driver owns all the logic: it expands each case
into ops, starts a fresh runner process per case, validates every envelope and event against
schema/paywire.schema.json, compares semantically (key order ignored, 1 == 1.0, `message` never
compared, `match: subset` where extra fields are allowed), checks that `seq` rises by one, and
applies the runner's expectation list (expectations/NAME.txt: case ids known to fail). A listed
case that passes, an unlisted case that fails, or a case that did not run fails the whole run.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import sys
import time
from pathlib import Path

import jsonschema

from backend_bodies import BackendBodies
from matrix import write_results
import signing
import timeshift  # on sys.path through signing

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCHEMA_PATH = ROOT / "schema" / "paywire.schema.json"

# The pinned ABI statuses; a runner reporting another number for a name is non-conformant.
STATUS_CODES = {
    "OK": 0, "FAILED": -1, "INVALID_ARGUMENT": -2, "INVALID_UTF8": -3, "INVALID_JSON": -4,
    "UNKNOWN_METHOD": -5, "VERSION_MISMATCH": -6, "INVALID_HANDLE": -7, "CLOSED": -8,
    "TIMEOUT": -9, "INTERNAL": -10, "NOMEM": -11, "BUSY": -12,
}
EVENT_TIMEOUT_MS = 2000
STEP_TIMEOUT_S = 60


class CaseFailure(Exception):
    pass


# ---------------------------------------------------------------------------- comparison

def same(expected, actual, subset, path="$"):
    """Raises CaseFailure unless `actual` matches `expected` semantically.

    Matchers stand for values a case cannot spell out: {"$matches": "regex"} (a string that
    fully matches, e.g. a random UUID), {"$type": "integer"} (any value of a JSON type, e.g. a
    wall-clock time) and {"$json": expected} (a string holding JSON, e.g. an HTTP body,
    compared after parsing with the same rules)."""
    if isinstance(expected, dict) and set(expected) == {"$matches"}:
        if not isinstance(actual, str) or re.fullmatch(expected["$matches"], actual) is None:
            raise CaseFailure(f"{path}: expected a string matching {expected['$matches']!r}, got {json.dumps(actual)[:200]}")
        return
    if isinstance(expected, dict) and set(expected) == {"$type"}:
        types = {"integer": int, "string": str, "boolean": bool, "object": dict, "array": list}
        wanted = types.get(expected["$type"])
        if wanted is None or not isinstance(actual, wanted) or (wanted is int and isinstance(actual, bool)):
            raise CaseFailure(f"{path}: expected a value of type {expected['$type']}, got {json.dumps(actual)[:200]}")
        return
    if isinstance(expected, dict) and set(expected) == {"$json"}:
        try:
            parsed = json.loads(actual) if isinstance(actual, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise CaseFailure(f"{path}: expected JSON text, got {json.dumps(actual)[:200]}")
        same(expected["$json"], parsed, subset, f"{path}<json>")
        return
    if isinstance(expected, bool) or isinstance(actual, bool):
        if type(expected) is not type(actual) or expected != actual:
            raise CaseFailure(f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}")
        return
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        if expected != actual:
            raise CaseFailure(f"{path}: expected {expected}, got {actual}")
        return
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            raise CaseFailure(f"{path}: expected an object, got {json.dumps(actual)[:200]}")
        if not subset and set(expected) != set(actual):
            raise CaseFailure(f"{path}: keys differ: expected {sorted(expected)}, got {sorted(actual)}")
        for key, value in expected.items():
            if key not in actual:
                raise CaseFailure(f"{path}: missing key '{key}' in {json.dumps(actual)[:300]}")
            same(value, actual[key], subset, f"{path}.{key}")
        return
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(expected) != len(actual):
            raise CaseFailure(f"{path}: expected {len(expected)} elements, got {json.dumps(actual)[:300]}")
        for index, (left, right) in enumerate(zip(expected, actual)):
            same(left, right, subset, f"{path}[{index}]")
        return
    if expected != actual:
        raise CaseFailure(f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)[:300]}")


def reject_duplicate_keys(pairs):
    keys = [key for key, _ in pairs]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    if duplicates:
        raise CaseFailure(f"duplicate keys {duplicates} in one JSON object")
    return dict(pairs)


def substitute(value, variables):
    """Replaces {"$var": "name"} with a saved value; "path": ["a", 0] digs into it (into the
    document a JSON text holds, when it meets one, such as a request's body) and "suffix": "/x"
    appends to a string ("tmpdir" is a fresh directory per case). {"$json_text": value} is
    value, substituted, as JSON text: an answer's body that carries something the core made.
    {"$signed_answer": {...}} is an HTTP answer signed as a server signs it, over the nonce of the
    request it answers; {"$signed_document": {...}} a placement's answer signed as a document, and
    {"$signed_bundle": {...}} a bundle file's signature (signing.py)."""
    if isinstance(value, dict):
        if set(value) == {"$json_text"}:
            return json.dumps(substitute(value["$json_text"], variables))
        if set(value) == {"$signed_answer"}:
            return signing.signed_answer(substitute(value["$signed_answer"], variables))
        if set(value) == {"$signed_document"}:
            return signing.signed_document(substitute(value["$signed_document"], variables))
        if set(value) == {"$signed_bundle"}:
            return signing.signed_bundle(substitute(value["$signed_bundle"], variables))
        if set(value) <= {"$var", "path", "suffix"} and "$var" in value:
            result = variables[value["$var"]]
            for part in value.get("path", []):
                result = json.loads(result)[part] if isinstance(result, str) else result[part]
            if "suffix" in value:
                result = result + value["suffix"]
            return result
        return {key: substitute(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [substitute(item, variables) for item in value]
    return value


# ---------------------------------------------------------------------------- runner process

class Runner:
    def __init__(self, command):
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", cwd=ROOT)

    def send(self, op):
        # JSON arguments travel as text, so a runner passes them on byte for byte and no runner's
        # JSON library can reformat a number (59.99 must reach the core as written).
        op = dict(op)
        if op.get("op") == "client_new":
            # On the run's date (tests/timeshift.py): the library's clock moves with the tests'.
            op["config"] = timeshift.client_config(op.get("config"))
        for key in ("params", "config"):
            if op.get(key) is not None:
                op[key + "_text"] = json.dumps(op.pop(key), ensure_ascii=False)
        line = json.dumps(op, ensure_ascii=False)
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise CaseFailure(f"runner died before op {line[:200]}: {self.stderr()}")
        reply = self.process.stdout.readline()
        if not reply:
            raise CaseFailure(f"runner died on op {line[:200]}: exit {self.process.poll()} {self.stderr()}")
        try:
            parsed = json.loads(reply)
        except ValueError:
            raise CaseFailure(f"runner printed a line that is not JSON: {reply[:300]}")
        if "runner_error" in parsed:
            raise CaseFailure(f"runner error: {parsed}")
        if isinstance(parsed.get("raw"), str):
            # What the library wrote, before any runner's JSON library could merge duplicate keys.
            try:
                json.loads(parsed["raw"], object_pairs_hook=reject_duplicate_keys)
            except ValueError:
                pass  # not JSON at all: reported as unparseable by the envelope check
        return parsed

    def stderr(self):
        try:
            return self.process.stderr.read()[-2000:]
        except Exception:
            return ""

    def close(self):
        """Ends the runner; a non-zero exit (a crash, a valgrind error) fails the case."""
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            code = self.process.wait(timeout=STEP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise CaseFailure("runner did not exit after stdin closed")
        if code != 0:
            raise CaseFailure(f"runner exited with {code}: {self.process.stderr.read()[-3000:]}")


# ---------------------------------------------------------------------------- one case

class CaseRun:
    def __init__(self, case, runner, validator, backend_bodies=None, capture=None):
        self.case = case
        self.runner = runner
        self.validator = validator
        self.backend_bodies = backend_bodies
        self.capture = capture
        self.requests = {}
        self.variables = {"tmpdir": tempfile.mkdtemp(prefix="paywire-conformance-")}
        self.last_seq = {}

    def validate(self, instance, definition, what):
        schema = {"$ref": f"{SCHEMA_PATH.as_uri()}#/$defs/{definition}"}
        try:
            errors = sorted(self.validator(schema).iter_errors(instance), key=lambda e: list(e.path))
        except jsonschema.exceptions._WrappedReferencingError:
            raise CaseFailure(f"the schema has no #/$defs/{definition}: every method and event must be described")
        if errors:
            error = errors[0]
            raise CaseFailure(f"{what} does not match schema {definition} at {list(error.path)}: "
                              f"{error.message[:300]}")

    def check_status(self, reply, expected_name):
        name, number = reply.get("status_name"), reply.get("status")
        if STATUS_CODES.get(name) != number:
            raise CaseFailure(f"status {number} is named {name}, but the pinned code of {name} is {STATUS_CODES.get(name)}")
        if expected_name is not None and name != expected_name:
            raise CaseFailure(f"expected status {expected_name}, got {name}: {json.dumps(reply.get('envelope'))[:400]}")

    def check_envelope(self, reply, expect, method=None):
        if "unparseable" in reply:
            raise CaseFailure(f"envelope is not JSON: {reply['unparseable'][:300]}")
        envelope = reply.get("envelope")
        if envelope is None:
            if expect.get("envelope", True):
                raise CaseFailure("no envelope was returned")
            return None
        self.validate(envelope, "envelope", "envelope")
        if "success" in envelope and method:
            self.validate(envelope["success"], f"results/{method}", f"result of {method}")
        subset = expect.get("match") == "subset"
        if "success" in expect:
            if "success" not in envelope:
                raise CaseFailure(f"expected success, got {json.dumps(envelope)[:400]}")
            same(substitute(expect["success"], self.variables), envelope["success"], subset, "$.success")
        if "error" in expect:
            if "error" not in envelope:
                raise CaseFailure(f"expected an error, got {json.dumps(envelope)[:400]}")
            # `message` is for people and never compared; error is always matched as a subset.
            same(expect["error"], envelope["error"], True, "$.error")
        for fragment in expect.get("raw_contains", []):
            if fragment not in reply.get("raw", ""):
                raise CaseFailure(f"envelope text lacks {fragment!r}: {reply.get('raw', '')[:400]}")
        return envelope

    def check_event(self, event, client):
        self.validate(event, "event", f"event {event.get('event')}")
        self.check_backend_body(event)
        seq = event["seq"]
        previous = self.last_seq.get(client, 0)
        if event["event"] == "events_overflowed":
            # The one allowed gap: the dropped events' seqs, named by the report that follows them.
            if event["first_dropped_seq"] != previous + 1 or seq != event["last_dropped_seq"] + 1:
                raise CaseFailure(f"events_overflowed {event} does not account for the gap after seq {previous}")
        elif seq != previous + 1:
            raise CaseFailure(f"event seq {seq} follows {previous}: events must be numbered 1, 2, 3, ...")
        self.last_seq[client] = seq

    def check_backend_body(self, event):
        """Every body the core sends the backend, in any case, is checked: batches against the
        wire schema, and with --openapi every body against the backend's spec. The request is
        remembered so the answer the case gives it can be checked too."""
        if event.get("event") != "host_request" or event.get("kind") != "http":
            return
        payload = event.get("payload", {})
        method, url = str(payload.get("method", "")), str(payload.get("url", ""))
        self.requests[event.get("request_id")] = (method, url)
        if method == "POST" and url.endswith("/v1/events"):
            try:
                body = json.loads(payload.get("body") or "")
            except ValueError:
                raise CaseFailure(f"the events batch is not JSON: {str(payload.get('body'))[:200]}")
            self.validate(body, "analytics_batch", "events batch")
        problem = self.backend_bodies.request_problem(method, url, payload.get("body")) if self.backend_bodies else None
        if problem:
            raise CaseFailure(problem)
        if self.capture is not None and "/v1/" in url:
            self.capture.write(self.case["id"], method, "/v1/" + url.split("/v1/", 1)[1], payload.get("body"))

    def check_backend_answer(self, step, params):
        """With --openapi, an answer handed to a backend request must be one the spec allows."""
        result = params.get("result") if isinstance(params, dict) else None
        if not self.backend_bodies or step.get("off_spec") or not isinstance(result, dict) or "status" not in result:
            return
        request = self.requests.get(params.get("request_id"))
        if request is None:
            return
        problem = self.backend_bodies.answer_problem(*request, result["status"], result.get("body"))
        if problem:
            raise CaseFailure(f"{problem} (mark the step \"off_spec\": true if that is the point)")

    def run(self):
        config = self.case.get("config")
        if config is not None:
            reply = self.runner.send({"op": "client_new", "client": "main", "config": substitute(config, self.variables)})
            self.check_status(reply, "OK")
            # null, or the warnings about what the config holds that the library ignored; a case
            # that is about them states them as `created`.
            # (a subset: each warning's message is for people).
            envelope = self.check_envelope(reply, {"success": self.case["created"], "match": "subset"} if "created" in self.case else {})
            if envelope is not None:
                self.validate(envelope.get("success"), "client_created", "the success of client_new")
        for index, step in enumerate(self.case["steps"]):
            try:
                self.run_step(step)
            except CaseFailure as failure:
                raise CaseFailure(f"step {index + 1} ({step.get('call') or step.get('op', {}).get('op') or next(iter(step))}): {failure}")

    def run_step(self, step):
        client = step.get("client", "main")
        expect = step.get("expect", {})
        if "call" in step:
            op = {"op": "call", "client": client, "method": step["call"]}
            if "params" in step:
                op["params"] = substitute(step["params"], self.variables)
                if step["call"] == "host_respond":
                    self.check_backend_answer(step, op["params"])
            for key in ("params_text", "params_hex", "params_repeat", "method_hex", "null_out_json"):
                if key in step:
                    op[key] = step[key]
            if "method_hex" in step:
                op["op"] = "call_raw"
                del op["method"]
            reply = self.runner.send(op)
            self.check_status(reply, expect.get("status", "OK"))
            envelope = self.check_envelope(reply, expect, step["call"] if "method_hex" not in step else None)
            if "save_as" in step and envelope is not None:
                self.variables[step["save_as"]] = envelope.get("success")
            if step["call"] == "get_sdk_version" and envelope is not None:
                self.check_schema_fingerprint(envelope.get("success") or {})
        elif "op" in step:
            op = dict(substitute(step["op"], self.variables))
            op.setdefault("client", client)
            reply = self.runner.send(op)
            if "status" in expect or "status" in reply:
                self.check_status(reply, expect.get("status"))
            if "envelope" in reply or "unparseable" in reply:
                self.check_envelope(reply, expect)
            if "event" in reply:
                self.check_event(reply["event"], op["client"])
            for key in ("call_id", "user_data_frees", "client_set"):
                if key in expect:
                    same(expect[key], reply.get(key), False, f"$.{key}")
            if "event" in expect:
                same(expect["event"], reply.get("event"), expect.get("match") == "subset", "$.event")
            if "decoded" in expect:
                self.check_decoded(reply, expect)
            if op["op"] == "hello":
                self.check_hello(reply)
            if "save_as" in step:
                self.variables[step["save_as"]] = reply
        elif "events" in step:
            self.expect_events(client, step)
        elif "edit_json" in step:
            self.edit_json(substitute(step["edit_json"], self.variables))
        elif "no_events" in step:
            reply = self.runner.send({"op": "poll", "client": client, "timeout_ms": step.get("wait_ms", 50)})
            if reply.get("status_name") != "TIMEOUT":
                raise CaseFailure(f"expected no more events, got {json.dumps(reply.get('event'))[:400]}")
        else:
            raise CaseFailure(f"unknown step {step}")

    def expect_events(self, client, step):
        expected = step["events"]
        subset = step.get("match", "subset") == "subset"
        received = []
        # A case whose event comes at a set time after the client started gives its own wait.
        timeout_ms = step.get("wait_ms", EVENT_TIMEOUT_MS)
        if step.get("via") == "handler":
            reply = self.runner.send({"op": "drain_events", "client": client, "count": len(expected),
                                      "timeout_ms": timeout_ms})
            received = reply["events"]
            for event in received:
                self.check_event(event, client)
        else:
            while len(received) < len(expected):
                reply = self.runner.send({"op": "poll", "client": client, "timeout_ms": timeout_ms})
                if reply.get("status_name") != "OK":
                    break
                self.check_event(reply["event"], client)
                received.append(reply["event"])
        if len(received) != len(expected):
            names = [(event.get("event"), event.get("seq")) for event in received]
            raise CaseFailure(f"expected {len(expected)} events, got {len(received)} {names}: {json.dumps(received)[:600]}")
        for index, (want, got) in enumerate(zip(expected, received)):
            if "seq" not in want:
                # seq is checked for every event on arrival; a case need not spell it out.
                got = {key: value for key, value in got.items() if key != "seq"}
            same(substitute(want, self.variables), got, subset, f"events[{index}]")
        if "save_as" in step:
            self.variables[step["save_as"]] = received

    @staticmethod
    def edit_json(edit):
        """A file the core keeps, edited between clients as a user with the device in hand
        would: each `set` [path, value] replaces or adds a member, each `delete` path removes one."""
        path = Path(edit["path"])
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CaseFailure(f"cannot edit {path}: {error}")
        for keys, value in edit.get("set", []):
            target = document
            for key in keys[:-1]:
                target = target.setdefault(key, {})
            target[keys[-1]] = value
        for keys in edit.get("delete", []):
            target = document
            for key in keys[:-1]:
                target = target[key]
            del target[keys[-1]]
        path.write_text(json.dumps(document), encoding="utf-8")

    def check_decoded(self, reply, expect):
        """A `decode` op (future.py): the binding's typed layer wrote back what it was given."""
        if "runner_error" in reply or not isinstance(reply.get("decoded_text"), str):
            raise CaseFailure(f"the typed layer did not read it: {json.dumps(reply)[:600]}")
        try:
            decoded = json.loads(reply["decoded_text"], object_pairs_hook=reject_duplicate_keys)
        except ValueError as error:
            raise CaseFailure(f"decoded_text is not JSON ({error}): {reply['decoded_text'][:300]}")
        same(expect["decoded"], decoded, False, "$.decoded")
        if "event_type" in expect and reply.get("event_type") != expect["event_type"]:
            raise CaseFailure(f"read as a {reply.get('event_type')} event, expected {expect['event_type']}")

    def check_schema_fingerprint(self, version):
        """The library says which schema it was built from: this kit's, byte for byte."""
        ours = hashlib.sha256(SCHEMA_PATH.read_bytes()).hexdigest()
        if version.get("schema_sha256") != ours:
            raise CaseFailure(f"the library was built from schema {version.get('schema_sha256')}, "
                              f"this kit's schema is {ours}")

    def check_hello(self, reply):
        if reply.get("abi_version") != reply.get("header_abi_version", reply.get("abi_version")):
            raise CaseFailure("library ABI version differs from the header the runner was built with")
        names = reply.get("status_names", {})
        for name, code in STATUS_CODES.items():
            if names.get(str(code)) != name:
                raise CaseFailure(f"paywire_status_name({code}) is {names.get(str(code))}, expected {name}")
        for code, name in names.items():
            if int(code) not in STATUS_CODES.values() and name != "UNKNOWN":
                raise CaseFailure(f"paywire_status_name({code}) is {name}, expected UNKNOWN")


# ---------------------------------------------------------------------------- main

def load_cases(directory, origins=None):
    """The cases of every *.json in `directory` (or of the one file it names); `origins` (if
    given) maps each id to its file's stem."""
    cases, seen = [], set()
    paths = [Path(directory)] if Path(directory).is_file() else sorted(Path(directory).glob("*.json"))
    for path in paths:
        document = json.loads(path.read_text(encoding="utf-8"))
        for case in document["cases"]:
            if case["id"] in seen:
                sys.exit(f"duplicate case id {case['id']} in {path}")
            seen.add(case["id"])
            cases.append(case)
            if origins is not None:
                origins[case["id"]] = path.stem
    return cases


class Capture:
    """The backend requests of every case, one JSON line each, written as they are made."""

    def __init__(self, path):
        self.handle = open(path, "w", encoding="utf-8")
        self.lock = threading.Lock()

    def write(self, case_id, method, path, body):
        line = json.dumps({"case": case_id, "method": method, "path": path, "body": body}, ensure_ascii=False)
        with self.lock:
            self.handle.write(line + "\n")
            self.handle.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runner", required=True, help="runner name; selects expectations/NAME.txt")
    parser.add_argument("--expectations", help="the expectation list to apply instead of expectations/NAME.txt "
                        "(make compat: the release's own)")
    parser.add_argument("--vectors", action="append", help="a directory of case files, or one case file (repeatable); default: vectors/")
    parser.add_argument("--jobs", type=int, default=1, help="cases run at once, each in its own runner process")
    parser.add_argument("--case", action="append", help="run only these case ids")
    parser.add_argument("--results", help="write passed/failed per vector file and the run's time here (JSON)")
    parser.add_argument("--openapi", help="also check every body the core POSTs against this spec (api/openapi.yaml)")
    parser.add_argument("--capture", help="write every request the core makes to the backend's /v1/ routes here, a JSON "
                        "object a line {case, method, path, body}, in the order made (tests/integration/test_records_kept.py "
                        "sends them to the real server)")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    registry = __import__("referencing").Registry().with_resource(
        SCHEMA_PATH.as_uri(), __import__("referencing").Resource.from_contents(schema))
    registry = registry.with_resource(schema["$id"], __import__("referencing").Resource.from_contents(schema))
    jsonschema.Draft202012Validator.check_schema(schema)

    def validator(sub):
        return jsonschema.Draft202012Validator(sub, registry=registry)

    expectation_file = Path(args.expectations) if args.expectations else HERE / "expectations" / f"{args.runner}.txt"
    known_failures = set()
    if expectation_file.exists():
        for line in expectation_file.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                known_failures.add(line)

    backend_bodies = BackendBodies(args.openapi) if args.openapi else None
    capture = Capture(args.capture) if args.capture else None
    directories = args.vectors or [str(HERE / "vectors")]
    origins = {}
    cases = [case for directory in directories for case in load_cases(directory, origins)]
    if len({case["id"] for case in cases}) != len(cases):
        sys.exit("duplicate case ids across the vector directories")
    if args.case:
        cases = [case for case in cases if case["id"] in args.case]

    def run_case(case):
        started = time.monotonic()
        runner = Runner(args.command)
        error = None
        run = CaseRun(case, runner, validator, backend_bodies, capture)
        try:
            run.run()
        except CaseFailure as failure:
            error = str(failure)
        finally:
            try:
                runner.close()
            except CaseFailure as failure:
                error = error or str(failure)
            shutil.rmtree(run.variables["tmpdir"], ignore_errors=True)
        return error, time.monotonic() - started

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(run_case, cases))
    errors = [error for error, _ in outcomes]
    durations = {case["id"]: seconds for case, (_, seconds) in zip(cases, outcomes)}
    seconds = time.monotonic() - started
    passed, failed, problems, verdicts = 0, 0, [], []
    for case, error in zip(cases, errors):
        # A listed case that fails conforms to the expectations, as the totals below count it.
        verdicts.append((error is None) != (case["id"] in known_failures))
        if error is None and case["id"] in known_failures:
            failed += 1
            problems.append(f"UNEXPECTED PASS {case['id']}: remove it from {expectation_file.name}")
        elif error is not None and case["id"] not in known_failures:
            failed += 1
            problems.append(f"FAIL {case['id']}: {error}")
        else:
            passed += 1
    ran = {case["id"] for case in cases}
    for missing in sorted(known_failures - ran):
        if not args.case:
            failed += 1
            problems.append(f"EXPECTATION FOR A CASE THAT DOES NOT EXIST {missing}")
    for problem in problems:
        print(problem)
    print(f"runner {args.runner}: {len(cases)} cases from {', '.join(directories)} in {seconds:.1f} s")
    if backend_bodies:
        print(f"backend: {backend_bodies.requests_checked} bodies the core sent and {backend_bodies.answers_checked} "
              f"answers the cases gave match {args.openapi}")
        if not (backend_bodies.requests_checked and backend_bodies.answers_checked) and not args.case:
            failed += 1
            print("no case exchanged bodies with the backend: the --openapi check proved nothing")
    if args.results:
        write_results(args.results, args.runner, cases, verdicts, origins, seconds, durations)
    print(f"conformance: {passed} passed, {failed} failed")
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
