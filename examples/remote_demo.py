#!/usr/bin/env python3
"""A session against paywire-devserver: the paywall from the backend, then the same paywall
when the backend is slow, broken or gone, and what the core says about each. Run it with
`make demo-remote` (it starts and stops the dev server itself)."""
import json
import subprocess
import sys
import tempfile
import time
import urllib.request

import paywire
from operator_key import OperatorKey

DEVSERVER, BUNDLE = sys.argv[1], sys.argv[2]
#: The fault switches are an operator's development route: they take an operator key.
OPERATOR = OperatorKey()


def control(url, faults):
    request = urllib.request.Request(url + "/_dev/faults", data=json.dumps(faults).encode(), method="POST",
                                     headers=OPERATOR.headers())
    urllib.request.urlopen(request, timeout=5).read()


def show(client, title, params):
    started = time.monotonic()
    paywall = client.call("get_paywall", params)
    elapsed = time.monotonic() - started
    print(f"\n== {title}")
    print(f"   variation {paywall['variation_id']}, content of {paywall['response_created_at']}, in {elapsed * 1000:.0f} ms")
    for event in client.events(timeout=0.1):
        if event["event"] == "log":
            details = event["details"]
            print(f"   log {event['level']}: served from {details.get('source')} because "
                  f"{details.get('underlying_error')} {details.get('transport_error') or details.get('status') or ''}")


server = subprocess.Popen([DEVSERVER, "--bundle", BUNDLE, *OPERATOR.server_args()], stdout=subprocess.PIPE, text=True)
try:
    url = server.stdout.readline().split()[2]
    print(f"paywire-devserver at {url}; the app ships an older copy of the bundle as its fallback")
    with open(BUNDLE) as source:
        fallback = json.load(source)
    fallback["response_created_at"] -= 86_400_000
    with tempfile.TemporaryDirectory() as directory:
        with open(f"{directory}/fallback.json", "w") as target:
            json.dump(fallback, target)
        config = {"profile_id": "demo-remote", "fallback": {"path": f"{directory}/fallback.json"},
                  "transport": {"type": "http", "base_url": url}}
        with paywire.Client(config) as client:
            placement = {"placement_id": "onboarding", "load_timeout": 1}
            show(client, "the backend answers", placement)
            show(client, "again: revalidated with If-None-Match (304)", placement)
            control(url, {"status": 500})
            show(client, "the backend answers HTTP 500: the cache serves", placement)
            control(url, {"latency_ms": 3000})
            show(client, "the backend takes 3 s, the budget is 1 s: the cache serves on time", placement)
        with paywire.Client(config) as fresh:
            control(url, {"drop": True})
            show(fresh, "a new install, offline, connection dropped: the bundle serves", placement)
finally:
    server.terminate()
    server.wait(timeout=10)
