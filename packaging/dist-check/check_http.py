#!/usr/bin/env python3
"""check_http.py missing|present: the built-in HTTP transport on a system without Swift.

missing: libcurl is not installed, so a client asking for `transport.type http` is refused
         with wrong_param on transport.type, naming libcurl.so.4; other clients still work.
present: with libcurl4 installed the same client is made; a request to a closed port fails
         over to the bundle, with libcurl's own error in the log event.
"""
import sys

import paywire

BUNDLE = "/usr/share/paywire/examples/bundle.json"
HTTP = {"type": "http", "base_url": "http://127.0.0.1:9", "connect_timeout_ms": 2000}


def missing():
    try:
        paywire.Client({"transport": HTTP}).close()
    except paywire.PaywireError as error:
        details = error.details or {}
        if error.code != "wrong_param" or details.get("field") != "transport.type" \
                or details.get("library") != "libcurl.so.4":
            sys.exit(f"expected wrong_param on transport.type naming libcurl.so.4, got {error.code}: {error} {details}")
        print(f"without libcurl: refused as expected: {error}")
    else:
        sys.exit("transport.type http was accepted although libcurl is not installed")
    with paywire.Client({"fallback": {"path": BUNDLE}}) as client:
        client.call("get_paywall", {"placement_id": "onboarding"})
    print("without libcurl: a client without the built-in transport works")


def present():
    config = {"profile_id": "dist-check", "fallback": {"path": BUNDLE}, "transport": HTTP, "log_level": "warn"}
    with paywire.Client(config) as client:
        paywall = client.call("get_paywall", {"placement_id": "onboarding", "load_timeout": 5})
        logs = [event for event in client.events(timeout=0.5) if event["event"] == "log"]
    errors = [str(event) for event in logs if "connect_failed" in str(event)]
    if paywall["placement"]["developer_id"] != "onboarding" or not errors:
        sys.exit(f"expected the bundle's paywall and a connect_failed log; got {paywall} and logs {logs}")
    print(f"with libcurl4: loaded; the closed port failed over to the bundle: {errors[0][:160]}")


if __name__ == "__main__":
    {"missing": missing, "present": present}[sys.argv[1]]()
