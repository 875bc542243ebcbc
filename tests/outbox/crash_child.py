"""Records exposures in a loop and prints each event id once log_show_paywall has returned
(the record is then committed). Killed with SIGKILL by crash_test.py at random points."""
import sys
import time

import paywire

storage_dir, base_url, bundle = sys.argv[1:4]
client = paywire.Client({
    "profile_id": "crash-profile", "storage_dir": storage_dir, "fallback": {"path": bundle},
    "transport": {"type": "http", "base_url": base_url, "request_timeout_ms": 500},
    # Batches leave all the time, so kills land during flushes as well as between them.
    "analytics": {"flush_at": 5, "flush_interval_ms": 50, "exposure_flush_delay_ms": 20,
                  "retry_min_ms": 10, "retry_max_ms": 100, "close_flush_ms": 0},
})
paywall = client.call("get_paywall", {"placement_id": "onboarding", "load_timeout": 1})
print("ready", flush=True)
while True:
    event_id = client.call("log_show_paywall", {"paywall": paywall})["event_id"]
    print(event_id, flush=True)
    time.sleep(0.002)
