"""Nothing is lost between device and backend, under kill -9.

A child records exposures in a loop and prints each acknowledged event id. It is killed with
SIGKILL at random points (between and during flushes) 50 times, always on the same storage_dir,
while the dev server drops 20% of requests and loses 10% of its answers after storing them. A
last client flushes. The dev server must then hold every printed id, each once.

usage: crash_test.py DEVSERVER BUNDLE [KILLS]
"""
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import paywire

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../examples"))
from operator_key import OperatorKey  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
#: The development routes (fault switches, the event log) take an operator key.
OPERATOR = OperatorKey()


def control(url, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}/_dev/{path}", data=data, method=method, headers=OPERATOR.headers())
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def run_child(storage_dir, url, bundle, lifetime):
    """Starts a child, lets it record for `lifetime` seconds, kills it; returns the ids it printed."""
    child = subprocess.Popen([sys.executable, os.path.join(HERE, "crash_child.py"), storage_dir, url, bundle],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready", child.stderr.read()
    # The lifetime counts from "ready": on a loaded machine the start alone can outlast it, and a
    # child killed before it records proves nothing.
    time.sleep(lifetime)
    child.send_signal(signal.SIGKILL)
    out, _ = child.communicate()
    lines = out.split("\n")
    # The last line may be cut mid-write by the kill: only whole lines were acknowledged.
    return [line for line in lines[:-1] if len(line) == 36]


def main():
    devserver, bundle = sys.argv[1], sys.argv[2]
    kills = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    rng = random.Random(20261123)
    with tempfile.TemporaryDirectory(prefix="paywire-crash-") as work:
        server = subprocess.Popen([devserver, "--bundle", bundle, "--data", os.path.join(work, "server"), *OPERATOR.server_args()],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = server.stdout.readline().split()[2]
        try:
            control(url, "POST", "faults", {"drop_rate": 0.2, "lose_response_rate": 0.1, "seed": 7, "only": "/v1/events"})
            storage_dir = os.path.join(work, "device")
            produced = []
            for _ in range(kills):
                produced += run_child(storage_dir, url, bundle, rng.uniform(0.25, 0.6))
            with paywire.Client({"profile_id": "crash-profile", "storage_dir": storage_dir, "fallback": {"path": bundle},
                                 "transport": {"type": "http", "base_url": url, "request_timeout_ms": 500},
                                 "analytics": {"retry_min_ms": 10, "retry_max_ms": 100}}) as last:
                last.call("flush_analytics", {"timeout_ms": 120000})
            stored = [event["event_id"] for event in control(url, "GET", "events?profile_id=crash-profile")["events"]]
            summary = control(url, "GET", "events/summary")
        finally:
            server.terminate()
            server.wait(timeout=10)
    lost = sorted(set(produced) - set(stored))
    twice = len(stored) - len(set(stored))
    print(f"crash test: {kills} kills; produced {len(produced)}, stored {len(set(stored))} "
          f"(of which {len(set(stored) - set(produced))} committed but not yet printed when killed), "
          f"duplicates sent {summary['duplicates']} (deduplicated), stored twice {twice}, lost {len(lost)}")
    if lost or twice or len(produced) < kills:
        print("lost:", lost[:20])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
