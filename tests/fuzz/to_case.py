#!/usr/bin/env python3
"""Turns a fuzz input (a minimized crash) into a case of tests/corpus, so it runs for ever after.

    python3 tests/fuzz/to_case.py TARGET INPUT [--bin build/fuzz/bin] [--out tests/corpus/fuzz_findings.json]

Runs the target on INPUT with PAYWIRE_FUZZ_TRACE set: the target writes every ABI call it makes
as a runner op (byte-exact, as *_hex), flushed before the call, so even an input that crashes
leaves its whole sequence. The ops become a case `fuzz.<target>.<sha1 of input>` with no
expectation beyond the kit's own (a status with its pinned number, envelopes and events that
match the schema, events in seq order), which `make corpus` runs through the C runner under
valgrind and `make conformance` does not. Run from the repository root; review the case (a
config from fuzz_client_new may name a relative storage_dir, which would then be created in
the checkout: point it into the case's {"$var": "tmpdir"} by hand) and commit it.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def trace(binary, input_path):
    with tempfile.TemporaryDirectory(prefix="paywire-trace-") as scratch:
        trace_path = Path(scratch) / "trace.jsonl"
        env = dict(os.environ, PAYWIRE_FUZZ_TRACE=str(trace_path), PAYWIRE_FUZZ_SCRATCH=str(Path(scratch) / "scratch"),
                   SWIFT_BACKTRACE="enable=no")
        # -detect_leaks=0: libFuzzer's leak check would run the input a second time.
        result = subprocess.run([str(binary), "-runs=1", "-detect_leaks=0", str(Path(input_path).resolve())], cwd=ROOT, env=env,
                                capture_output=True, text=True)
        if not trace_path.exists():
            sys.exit(f"the target wrote no trace:\n{result.stderr[-2000:]}")
        ops = [json.loads(line) for line in trace_path.read_text().splitlines() if line.strip()]
        # One input is one client: should the input have run twice, the first run is the case.
        starts = [index for index, op in enumerate(ops) if op["op"] == "client_new"]
        return ops[:starts[1]] if len(starts) > 1 else ops, result.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target")
    parser.add_argument("input")
    parser.add_argument("--bin", default=str(ROOT / "build/fuzz/bin"))
    parser.add_argument("--out", default=str(ROOT / "tests/corpus/fuzz_findings.json"))
    args = parser.parse_args()

    data = Path(args.input).read_bytes()
    ops, status = trace(Path(args.bin) / args.target, args.input)
    if not ops:
        sys.exit("the target made no call: is this an input of that target?")
    if ops[-1]["op"] != "client_free":
        ops.append({"op": "client_free", "client": "fuzz"})  # the crash cut it short
    case_id = f"fuzz.{args.target}.{hashlib.sha1(data).hexdigest()[:12]}"
    case = {
        "id": case_id,
        "description": f"An input {args.target} found ({'it crashed the target' if status else 'replayed'}); "
                       f"the calls it made, byte for byte, must answer without a crash or a leak.",
        "steps": [{"op": op} for op in ops],
    }
    out = Path(args.out)
    suite = json.loads(out.read_text()) if out.exists() else {"suite": "fuzz_findings", "cases": []}
    suite["cases"] = [existing for existing in suite["cases"] if existing["id"] != case_id] + [case]
    out.write_text(json.dumps(suite, indent=1, ensure_ascii=False) + "\n")
    print(f"{case_id}: {len(ops)} ops written to {out} (the target exited {status})")
    if any("config_hex" in op and b"storage_dir" in bytes.fromhex(op["config_hex"]) for op in ops):
        print("note: the config names a storage_dir; make it {\"$var\": \"tmpdir\"} before committing")


if __name__ == "__main__":
    main()
