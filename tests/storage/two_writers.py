#!/usr/bin/env python3
"""Two processes set 45 custom attributes each on the same profile in one storage_dir.

    PAYWIRE_LIBRARY=... PYTHONPATH=bindings/python python3 tests/storage/two_writers.py DIR

Prints `kept N of 90 updates; M storage_locked refusals`. Each worker opens a client on DIR,
retrying while it is told storage_locked; once open it waits until the other worker has tried
to open too (so the two always overlap), then makes its 45 updates, one call each, and frees
the client. With one owner per directory the second worker waits its turn and all 90 are kept;
a library without that rule lets both write at once, and the last writer of profile.json wins.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from helpers import config, paywire  # noqa: E402

UPDATES = 45
PATIENCE = 60.0  # seconds a worker may wait for the directory or for the other worker


def worker(directory, index, markers):
    refusals = 0
    deadline = time.monotonic() + PATIENCE
    (markers / f"tried-{index}").touch()
    while True:
        try:
            client = paywire.Client(config(directory))
            break
        except paywire.PaywireError as error:
            if error.code != "storage_locked" or time.monotonic() > deadline:
                raise
            refusals += 1
            time.sleep(0.005)
    while not (markers / f"tried-{1 - index}").exists() and time.monotonic() < deadline:
        time.sleep(0.001)
    for number in range(UPDATES):
        client.call("update_profile", {"custom_attributes": {f"w{index}_{number}": number}})
        time.sleep(0.001)
    client.close()
    print(json.dumps({"refusals": refusals}))


def main(directory):
    markers = Path(directory).parent / (Path(directory).name + "-markers")
    markers.mkdir(parents=True, exist_ok=True)
    workers = [subprocess.Popen([sys.executable, __file__, "--worker", directory, str(index), str(markers)],
                                stdout=subprocess.PIPE, text=True) for index in (0, 1)]
    refusals = 0
    for process in workers:
        output, _ = process.communicate(timeout=PATIENCE * 2)
        if process.returncode != 0:
            sys.exit(f"a worker failed (exit {process.returncode})")
        refusals += json.loads(output.strip().splitlines()[-1])["refusals"]
    client = paywire.Client(config(directory))
    attributes = client.call("get_profile").get("custom_attributes", {})
    client.close()
    kept = sum(1 for key in attributes if key[:2] in ("w0", "w1"))
    print(f"kept {kept} of {2 * UPDATES} updates; {refusals} storage_locked refusals")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit(__doc__)
