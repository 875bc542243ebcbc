#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, made from the conformance vectors and the bad-input corpus.

    python3 tests/fuzz/seeds.py OUT_DIR

writes OUT_DIR/<target>/<sha1> files (one input each), OUT_DIR/paywire.dict (a libFuzzer
dictionary of the keys and short strings the vectors use) and OUT_DIR/bundles/ (the bundles the
client_new seeds name by relative path). Every params object of every case becomes part of a
seed of the `call` target, in the order its case makes the calls, so the fuzzer starts from
flows that reach deep (a paywall, its view, a purchase) rather than from single calls.
"""
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASE_FILES = sorted((ROOT / "tests/conformance/vectors").glob("*.json")) + sorted((ROOT / "tests/corpus").glob("*.json"))
BUNDLE_FILES = sorted((ROOT / "tests/conformance/bundles").glob("*.json")) + [ROOT / "examples/bundle.json"]
MAX_SEED = 64 * 1024  # larger inputs slow every execution; the 10 MB cases are left to the corpus run
CALLS_PER_SEED = 15   # plus a set_fallback line: the call target runs at most 16 lines


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def text_argument(spec, key):
    """The bytes a runner op passes for `key` (`key`, `key_text`, `key_hex`, `key_repeat`), or None."""
    if spec.get(key + "_text") is not None:
        return spec[key + "_text"].encode()
    if spec.get(key + "_hex") is not None:
        return bytes.fromhex(spec[key + "_hex"])
    if spec.get(key + "_repeat") is not None:
        repeat = spec[key + "_repeat"]
        times = min(repeat["times"], MAX_SEED // max(1, len(repeat["text"])))
        return (repeat.get("prefix", "") + repeat["text"] * times + repeat.get("suffix", "")).encode()
    if spec.get(key) is not None:
        value = spec[key]
        return value.encode() if isinstance(value, str) else compact(value).encode()
    return None


class Substituter:
    """Replaces the vectors' `{"$var": ...}` references: a saved call result becomes `$N` (the
    call target's reference to line N); a temporary directory becomes a relative path."""

    def __init__(self):
        self.saved = {}

    def bytes_of(self, value):
        return self.text(value).encode()

    def text(self, value):
        if isinstance(value, dict) and "$var" in value:
            name = value["$var"]
            if name == "tmpdir":
                return compact("store" + value.get("suffix", ""))
            if name in self.saved and not value.get("path"):
                return "$%d" % self.saved[name]
            return compact("x")
        if isinstance(value, dict):
            return "{" + ",".join(compact(k) + ":" + self.text(v) for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ",".join(self.text(v) for v in value) + "]"
        return compact(value)


def relocated_config(config):
    """A config whose files resolve inside the client_new target's scratch directory."""
    if isinstance(config, dict):
        result = {}
        for key, value in config.items():
            if isinstance(value, dict) and "$var" in value:
                value = "store" + value.get("suffix", "")
            elif key == "path" and isinstance(value, str) and value.endswith(".json"):
                value = "bundles/" + os.path.basename(value)
            else:
                value = relocated_config(value)
            result[key] = value
        return result
    if isinstance(config, list):
        return [relocated_config(v) for v in config]
    return config


def cases():
    for path in CASE_FILES:
        yield from json.loads(path.read_text())["cases"]


def call_seeds(case):
    """The case's calls as call-target inputs, CALLS_PER_SEED at a time."""
    lead = []
    fallback = (case.get("config") or {}).get("fallback")
    if isinstance(fallback, dict):
        lead.append(b"set_fallback\t" + compact(fallback).encode())
    lines, substituter = [], Substituter()
    for step in case["steps"]:
        if "call" in step:
            method, spec, async_ = step["call"].encode(), step, False
        elif step.get("op", {}).get("op") in ("call", "call_async", "call_raw"):
            spec = step["op"]
            method, async_ = text_argument(spec, "method"), spec["op"] == "call_async"
            if method is None or len(method) > 128:
                continue
        else:
            continue
        has_params = any(spec.get(k) is not None for k in ("params", "params_text", "params_hex", "params_repeat"))
        if spec.get("params") is not None:
            params = substituter.bytes_of(spec["params"])
        else:
            params = text_argument(spec, "params")
        line = (b"@" if async_ else b"") + method + ((b"\t" + params) if has_params and params is not None else b"")
        if b"\n" in line:
            continue  # a line break would split the call; such params are in the corpus run instead
        if step.get("save_as"):
            substituter.saved[step["save_as"]] = len(lines) % CALLS_PER_SEED + len(lead)
        lines.append(line)
    for start in range(0, len(lines), CALLS_PER_SEED):
        yield b"\n".join(lead + lines[start:start + CALLS_PER_SEED])


def config_seeds(case):
    if case.get("config") is not None:
        yield compact(relocated_config(case["config"])).encode()
    for step in case["steps"]:
        spec = step.get("op", {})
        if spec.get("op") != "client_new":
            continue
        if isinstance(spec.get("config"), (dict, list)):
            yield compact(relocated_config(spec["config"])).encode()
        else:
            raw = text_argument(spec, "config")
            if raw is not None:
                yield raw


def message_seeds(case):
    for step in case["steps"]:
        method = step.get("call") or step.get("op", {}).get("method")
        if method != "onboarding_view_ingest":
            continue
        params = step.get("params", step.get("op", {}).get("params"))
        if params is None:
            raw = text_argument(step.get("op", {}), "params")
            try:
                params = json.loads(raw)
            except (TypeError, ValueError, RecursionError):
                continue  # hostile params text (100,000 levels deep): the bytes are no message
        message = params.get("message") if isinstance(params, dict) else None
        if isinstance(message, str):
            yield message.encode()
        elif message is not None:
            yield compact(message).encode()


def bundle_seeds():
    for path in BUNDLE_FILES:
        raw = path.read_bytes()
        try:
            bundle = json.loads(raw)
            ids = list(bundle.get("placements", {})) + list(bundle.get("onboardings", {}))
        except (ValueError, AttributeError):
            ids = []
        for placement_id in ids or ["onboarding"]:
            yield placement_id.encode() + b"\n" + raw
            yield placement_id.encode() + b"\tfr\n" + raw  # with a request locale
    for case in cases():
        for step in case["steps"]:
            params = step.get("params") if step.get("call") == "set_fallback" else None
            if isinstance(params, dict) and isinstance(params.get("bundle"), dict):
                for placement_id in list(params["bundle"].get("placements", {}) or {"onboarding": 0}):
                    yield placement_id.encode() + b"\n" + compact(params["bundle"]).encode()


def dictionary_words():
    words = set()

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                words.add(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and 0 < len(value) <= 40:
            words.add(value)

    for case in cases():
        walk(case)
    walk(json.loads((ROOT / "schema/paywire.schema.json").read_text()))
    return sorted(words)


def dictionary_entry(word):
    """A libFuzzer dictionary line: the word quoted, with quotes, backslashes and bytes outside
    printable ASCII as \\xNN."""
    escaped = "".join(c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else "".join("\\x%02X" % b for b in c.encode())
                      for c in word)
    return '"' + escaped + '"'


def write_seeds(directory, seeds):
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    for seed in seeds:
        if len(seed) > MAX_SEED:
            continue
        (directory / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
        count += 1
    return count


def main(out):
    out = Path(out)
    every_case = list(cases())
    counts = {
        "fuzz_call": write_seeds(out / "fuzz_call", (s for case in every_case for s in call_seeds(case))),
        "fuzz_client_new": write_seeds(out / "fuzz_client_new",
                                       [(ROOT / "examples/config.json").read_bytes()] +
                                       [s for case in every_case for s in config_seeds(case)]),
        "fuzz_fallback": write_seeds(out / "fuzz_fallback", bundle_seeds()),
        "fuzz_onboarding": write_seeds(out / "fuzz_onboarding", (s for case in every_case for s in message_seeds(case))),
    }
    bundles = out / "bundles"
    bundles.mkdir(parents=True, exist_ok=True)
    for path in BUNDLE_FILES:
        shutil.copyfile(path, bundles / path.name)
    with open(out / "paywire.dict", "w") as dictionary:
        for word in dictionary_words():
            dictionary.write(dictionary_entry(word) + "\n")
    print("seeds: " + ", ".join(f"{name} {count}" for name, count in counts.items()) + f" (from {len(every_case)} cases)")
    return counts


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
