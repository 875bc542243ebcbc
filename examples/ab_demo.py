#!/usr/bin/env python3
"""An A/B test end to end: simulated users meet a 50/50 paywall test over the built-in HTTP
transport, some buy (4% on one variation, 6% on the other), while the dev server drops 20% of
requests (and loses 5% of its answers after storing them) and is restarted once midway. At the end the dev server's results must add up to what
the simulation did: every user exposed once, every purchaser counted, nothing twice.

usage: ab_demo.py DEVSERVER BUNDLE PRODUCTS [PROFILES] (run by `make demo-ab`; `make test` runs 200)
"""
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import paywire
from operator_key import OperatorKey

DEVSERVER, BUNDLE, PRODUCTS = sys.argv[1:4]
PROFILES = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
SEED = 20261123
PLACEMENT = "onboarding"
BUY_RATE = {"onboarding-monthly-first": 0.04, "onboarding-annual-first": 0.06}
STORE = json.load(open(PRODUCTS))["store"]
#: Results, fault switches and the event summary are operator routes: they take an operator key.
OPERATOR = OperatorKey()


def get(url, path):
    with urllib.request.urlopen(urllib.request.Request(url + path, headers=OPERATOR.headers()), timeout=10) as response:
        return json.loads(response.read())


def faults(url, body):
    request = urllib.request.Request(url + "/_dev/faults", data=json.dumps(body).encode(), method="POST",
                                     headers=OPERATOR.headers())
    urllib.request.urlopen(request, timeout=10).read()


class Backend:
    """The dev server, restartable on the same port and data directory."""

    def __init__(self, data_dir):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.data_dir = data_dir
        self.url = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self):
        self.process = subprocess.Popen([DEVSERVER, "--bundle", BUNDLE, "--products", PRODUCTS, "--data", self.data_dir,
                                         "--port", str(self.port), *OPERATOR.server_args()], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.process.stdout.readline().startswith("listening on ")
        faults(self.url, {"drop_rate": 0.2, "lose_response_rate": 0.05, "seed": SEED, "only": "/v1/"})

    def restart(self):
        self.process.kill()
        self.process.wait()
        self.start()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def wait_until_verified(client, timeout=30.0):
    """A purchase is counted when the backend has verified it: the profile says so."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = client.poll(0.1)
        if event and event["event"] == "did_load_latest_profile":
            if any(level.get("verified") for level in event["profile"]["access_levels"].values()):
                return
    raise RuntimeError("a purchase was not verified in time")


def simulate(user, backend, rng):
    """One user: sees the paywall (an exposure), maybe buys. Returns (variation, bought)."""
    with paywire.Client({"profile_id": f"ab-user-{SEED}-{user:05d}", "store": STORE,
                         "transport": {"type": "http", "base_url": backend.url, "request_timeout_ms": 1000},
                         "fallback": {"path": BUNDLE},
                         "analytics": {"retry_min_ms": 20, "retry_max_ms": 200, "close_flush_ms": 0}}) as client:
        paywall = client.call("get_paywall", {"placement_id": PLACEMENT, "load_timeout": 2})
        client.call("log_show_paywall", {"paywall": paywall})
        variation = paywall["variation_id"]
        bought = rng.random() < BUY_RATE[variation]
        if bought:
            client.call("make_purchase", {"vendor_product_id": "premium_monthly", "paywall": paywall})
            wait_until_verified(client)
        client.call("flush_analytics", {"timeout_ms": 30000})
        return variation, bought


def table(results):
    rows = [f"{'variation':<26}{'weight':>7}{'exposed':>9}{'buyers':>8}{'conversion (95% CI)':>26}   revenue / exposed"]
    for experiment in results["experiments"]:
        for v in experiment["variations"]:
            c = v["conversion"]
            per = ", ".join(f"{r['amount']} {r['currency_code']}" for r in v["revenue_per_exposed"]) or "-"
            rows.append(f"{v['variation_id']:<26}{v['weight']:>7}{v['exposed']:>9}{v['purchasers']:>8}"
                        f"{c['rate'] * 100:>9.2f}% [{c['low'] * 100:5.2f}, {c['high'] * 100:5.2f}]   {per}")
        srm = experiment["sample_ratio"]
        rows.append(f"sample ratio: chi-square {srm['chi_square']:.3f}, p = {srm['p_value']:.3f}, "
                    f"{'MISMATCH' if srm['mismatch'] else 'no mismatch'}")
    return "\n".join(rows)


def main():
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory(prefix="paywire-ab-") as work:
        backend = Backend(os.path.join(work, "server"))
        try:
            print(f"A/B demo: {PROFILES} users, placement '{PLACEMENT}' (50/50), buying 4% vs 6%; "
                  f"the dev server drops 20% of requests, loses 5% of its answers, and restarts at user {PROFILES // 2}")
            exposed, bought = {}, {}
            started = time.monotonic()
            for user in range(PROFILES):
                if user == PROFILES // 2:
                    backend.restart()
                variation, purchase = simulate(user, backend, rng)
                exposed[variation] = exposed.get(variation, 0) + 1
                bought[variation] = bought.get(variation, 0) + purchase
            faults(backend.url, {})
            results = get(backend.url, f"/v1/experiments/{PLACEMENT}/results")
            summary = get(backend.url, "/_dev/events/summary")
        finally:
            backend.stop()
    print(f"simulated in {time.monotonic() - started:.1f} s\n")
    print(table(results))
    cells = {v["variation_id"]: v for e in results["experiments"] for v in e["variations"]}
    problems = []
    for variation, count in exposed.items():
        if cells[variation]["exposed"] != count:
            problems.append(f"{variation}: the backend counts {cells[variation]['exposed']} exposed, the simulation {count}")
        if cells[variation]["purchasers"] != bought[variation]:
            problems.append(f"{variation}: the backend counts {cells[variation]['purchasers']} buyers, the simulation {bought[variation]}")
    if summary["stored"] != PROFILES:
        problems.append(f"{summary['stored']} exposures stored for {PROFILES} users")
    print(f"\ncheck: exposures = users ({summary['stored']} = {PROFILES}), buyers as simulated "
          f"({sum(bought.values())}), duplicate sends deduplicated {summary['duplicates']}, stored twice 0: "
          + ("ok" if not problems else "FAILED"))
    for problem in problems:
        print("  " + problem)
    low_high = [(cells[v]["conversion"]["low"], cells[v]["conversion"]["high"]) for v in BUY_RATE if v in cells]
    if len(low_high) == 2:
        overlap = low_high[0][0] <= low_high[1][1] and low_high[1][0] <= low_high[0][1]
        print("reading: the 95% intervals " + ("overlap: at this size the test cannot tell 4% from 6% apart" if overlap
                                               else "do not overlap: the variations differ"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
