"""Helpers of the storage tests: configs on the example bundle and store, child processes
running tests/storage/child.py, and filling a filesystem."""
import json
import os
import pathlib
import subprocess
import sys

import paywire  # noqa: F401  (re-exported for the tests)

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHILD = pathlib.Path(__file__).resolve().parent / "child.py"
EXAMPLE = json.loads((ROOT / "examples/config.json").read_text())
ONBOARDING_BUNDLE = str(ROOT / "tests/conformance/bundles/basic.json")
# One placement capped at 1000 presentations a day (the most a cap counts), for the cap's kill tests.
CAPPED_BUNDLE = {"format_version": 1, "response_created_at": 1705314600000, "placements": {"capped": {
    "placement_audience_version_id": "capped-v1", "cap": {"count": 1000, "per_seconds": 86400},
    "variations": [{"variation_id": "a", "paywall_id": "pw", "weight": 100, "products": ["premium_monthly"]}]}}}


def config(storage_dir, **extra):
    """The example config (its bundle and test store) on `storage_dir`, with a fixed profile."""
    result = dict(EXAMPLE, profile_id="storage-profile", storage_dir=str(storage_dir), log_level="error")
    result["fallback"] = {"path": str(ROOT / "examples/bundle.json")}
    result.update(extra)
    return result


def drain(client, timeout=0.2):
    return list(client.events(timeout))


def start_child(*args):
    """Runs child.py with `args`; its stdout is a pipe of JSON lines (see child.py)."""
    return subprocess.Popen([sys.executable, str(CHILD), *map(str, args)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))


def read_line(process):
    line = process.stdout.readline()
    if not line:
        raise AssertionError(f"child exited ({process.wait()}): {process.stderr.read()}")
    return json.loads(line)


def profile_on_disk(storage_dir):
    return json.loads((pathlib.Path(storage_dir) / "profile.json").read_text())


def fill(directory):
    """Fills the filesystem of `directory` until it is full; returns the filler's path."""
    filler = pathlib.Path(directory) / "filler"
    chunk = b"\0" * 4096
    with open(filler, "wb", buffering=0) as file:
        try:
            while True:
                file.write(chunk)
        except OSError:
            pass
    # Also the last partial page: byte by byte until the filesystem refuses.
    with open(filler, "ab", buffering=0) as file:
        try:
            while True:
                file.write(b"\0")
        except OSError:
            pass
    return filler
