#!/usr/bin/env python3
"""A second process for the storage tests, driven by its arguments; it answers on stdout in
JSON lines.

    child.py hold DIR        opens a client on DIR, says {"opened": true} (or {"error": code}),
                             then holds it until a line arrives on stdin
    child.py write DIR       opens a client on DIR, says {"writing": true}, then writes the
                             profile and onboarding answers in a loop until it is killed
    child.py present DIR     opens a client on DIR, then presents the capped placement's paywall
                             in a loop, saying {"presented": n} after each present_paywall_view
                             returned, until it is killed
    child.py read-only DIR EMPTY
                             (as `nobody` when started as root) checks what a client does on a
                             directory it cannot write (DIR holds a profile, EMPTY nothing),
                             and prints one line per check
"""
import json
import os
import sys

from helpers import ONBOARDING_BUNDLE, CAPPED_BUNDLE, config, paywire


def say(value):
    print(json.dumps(value), flush=True)


def hold(directory):
    try:
        client = paywire.Client(config(directory))
    except paywire.PaywireError as error:
        say({"error": error.code, "details": error.details})
        return
    say({"opened": True})
    sys.stdin.readline()
    client.close()


def write(directory):
    client = paywire.Client(config(directory, fallback={"path": ONBOARDING_BUNDLE}))
    onboarding = client.call("get_onboarding", {"placement_id": "main_onboarding"})
    view = client.call("create_onboarding_view", {"onboarding": onboarding})
    meta = {"onboarding_id": "onboarding_123", "screen_cid": "s", "screen_index": 0, "total_screens": 1}
    # Full-size records (about 25 KB of profile), so a kill lands inside a write often.
    client.call("update_profile", {"custom_attributes": {f"a{i}": "x" * 250 for i in range(99)}})
    say({"writing": True})
    count = 0
    while True:
        count += 1
        client.call("update_profile", {"custom_attributes": {"counter": count}})
        client.call("onboarding_view_ingest", {"view_id": view["id"], "message": {
            "element_id": f"e{count % 50}", "meta": meta,
            "params": {"type": "input", "value": {"type": "text", "value": "y" * 200}}}})
        if count % 100 == 0:
            for _ in client.events():
                pass


def present(directory):
    client = paywire.Client(config(directory, fallback={"bundle": CAPPED_BUNDLE}))
    paywall = client.call("get_paywall", {"placement_id": "capped"})
    count = 0
    while True:
        view = client.call("create_paywall_view", {"paywall": paywall})
        client.call("present_paywall_view", {"view_id": view["id"]})
        count += 1
        say({"presented": count})
        for _ in client.events():
            pass


def outcome(function):
    try:
        return {"ok": function()}
    except paywire.PaywireError as error:
        return {"error": error.code, "status": error.status, "details": error.details}


def read_only(directory, empty):
    if os.geteuid() == 0:
        # The library is loaded already; from here on, file access is checked as `nobody`,
        # for whom the directories (owned by nobody, mode 0500) are read-only. Root would write.
        os.setgid(65534)
        os.setuid(65534)
    settings = config(directory)
    del settings["fallback"]  # no file outside the directory: `nobody` may not reach the checkout
    say({"start": outcome(lambda: paywire.Client(settings).close() or True)})
    say({"new_directory": outcome(lambda: paywire.Client(dict(settings, storage_dir=os.path.join(directory, "inner"))).close())})
    say({"no_lock_file": outcome(lambda: paywire.Client(dict(settings, storage_dir=empty)).close())})
    say({"listing": sorted(os.listdir(directory))})


if __name__ == "__main__":
    mode, arguments = sys.argv[1], sys.argv[2:]
    {"hold": hold, "write": write, "present": present, "read-only": read_only}[mode](*arguments)
