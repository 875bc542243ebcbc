"""How far a purchase tap travels: the source files, and the entries into Client.swift, crossed
from `paywall_view_make_purchase` until the backend's answer makes the access verified.

Runs the flow twice against a library built with coverage (`make hops` builds it): once up to
the tap, once to the verified access. A function whose execution count rose between the two
was crossed by the tap; the report counts their files and the calls into Client.swift."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python"))

CONFIG = {
    "profile_id": "hops", "api_key": "pk_test_123", "host_request_timeout_ms": 3000,
    "fallback": {"path": str(ROOT / "tests/conformance/bundles/basic.json")},
    "transport": {"type": "host", "base_url": "https://api.test"}, "refresh_profile_on_start": False,
    "store": {"type": "test", "now": "2024-01-15T10:30:00.000Z", "products": [
        {"vendor_product_id": "monthly", "title": "Monthly", "description": "", "price": "9.99", "currency_code": "USD",
         "period": {"unit": "month", "number_of_units": 1}, "access_level": "premium"}]},
    "analytics": {"flush_interval_ms": 600000, "exposure_flush_delay_ms": 60000},
}


def until(client, predicate):
    while True:
        event = client.poll(2.0)
        if event is None:
            raise SystemExit("the flow stalled")
        if predicate(event):
            return event


def flow(tap):
    import paywire
    with paywire.Client(CONFIG) as client:
        paywall = {"placement": {"developer_id": "onboarding", "audience_name": "All Users", "revision": 3,
                                 "ab_test_name": "price_test", "placement_audience_version_id": "onb-v3"},
                   "paywall_id": "pw-a", "paywall_name": "Variant A", "variation_id": "var-a",
                   "products": [{"vendor_product_id": "monthly"}]}
        view = client.call("create_paywall_view", {"paywall": paywall})
        while client.poll(0.05) is not None:
            pass
        if not tap:
            return
        client.call("paywall_view_make_purchase", {"view_id": view["id"], "product_id": "monthly"})
        post = until(client, lambda e: e["event"] == "host_request" and e["payload"].get("url", "").endswith("/v1/purchases"))
        body = json.loads(post["payload"]["body"])
        answer = {"profile": {"access_levels": {"premium": {"vendor_product_id": "monthly", "activated_at": "2024-01-15T10:30:00.000Z",
                                                          "expires_at": "2024-02-15T10:30:00.000Z"}}},
                  "transaction": {"transaction_id": body["transaction_id"], "status": "verified"}}
        client.call("host_respond", {"request_id": post["request_id"], "result": {"status": 200, "headers": [], "body": json.dumps(answer)}})
        until(client, lambda e: e["event"] == "did_load_latest_profile"
              and e["profile"]["access_levels"].get("premium", {}).get("verified") is True)


def counts(library, tap, work):
    raw = work / f"{tap}.profraw"
    env = dict(os.environ, PAYWIRE_LIBRARY=str(library), LLVM_PROFILE_FILE=str(raw))
    subprocess.run([sys.executable, __file__, "--flow", "tap" if tap else "base"], env=env, check=True)
    data = work / f"{tap}.profdata"
    subprocess.run(["llvm-profdata", "merge", "-o", str(data), str(raw)], check=True)
    exported = subprocess.run(["llvm-cov", "export", "-skip-expansions", "-instr-profile", str(data), str(library)],
                              check=True, capture_output=True, text=True).stdout
    functions = json.loads(exported)["data"][0]["functions"]
    return {(f["name"], f["filenames"][0]): f["count"] for f in functions}


def demangle(symbol):
    try:
        return subprocess.run(["swift-demangle", "-simplified", symbol], capture_output=True, text=True).stdout.strip() or symbol
    except OSError:
        return symbol


def main():
    if sys.argv[1:2] == ["--flow"]:
        flow(sys.argv[2] == "tap")
        return
    library = Path(sys.argv[1]).resolve()
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        before, after = counts(library, False, work), counts(library, True, work)
    crossed = {key: after[key] - before.get(key, 0) for key in after if after[key] > before.get(key, 0)}
    files = sorted({Path(name).relative_to(ROOT) if Path(name).is_relative_to(ROOT) else Path(name)
                    for (_, name) in crossed if "/Sources/" in name})
    client_entries = sum(count for (_, name), count in crossed.items() if name.endswith("Sources/PaywireCore/Client.swift"))
    print(f"purchase tap to verified access: {len(files)} source files crossed; Client.swift entered {client_entries} times")
    for (function, name), count in sorted(crossed.items()):
        if name.endswith("Sources/PaywireCore/Client.swift"):
            print(f"  Client.swift: {count} x {demangle(function)}")
    for file in files:
        print(f"  {file}")


if __name__ == "__main__":
    main()
