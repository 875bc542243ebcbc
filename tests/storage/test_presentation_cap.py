"""A placement's cap holds across kill -9: each presentation is counted under storage_dir before
present_paywall_view returns, so a process killed at any moment has kept every presentation it
reported, and at most the one it was in the middle of."""
import json
import random
import signal
import time

from helpers import CAPPED_BUNDLE, config, paywire, read_line, start_child

KILLS = 12


def presented(store):
    """How many presentations the next client on `store` counts for the capped placement."""
    with paywire.Client(config(store, fallback={"bundle": CAPPED_BUNDLE})) as client:
        answer = client.call("get_presentation", {"placement_id": "capped"})
    assert answer["decision"] == "present", answer
    return answer["cap"]["presented"]


def test_every_reported_presentation_survives_kill_9_and_at_most_one_more_is_counted(tmp_path):
    store = tmp_path / "store"
    rng = random.Random(33)
    counted = 0
    for kill in range(KILLS):
        child = start_child("present", store)
        reported = 0
        wanted = rng.randint(1, 15)
        while reported < wanted:
            reported = read_line(child)["presented"]
        time.sleep(rng.uniform(0, 0.02))  # land inside the next presentation's write, sometimes
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        # Lines written before the kill may still be in the pipe: each one is a presentation the
        # child saw returned, which the count must include.
        for line in child.stdout.read().splitlines():
            if line.strip():
                reported = max(reported, json.loads(line)["presented"])
        for stream in (child.stdin, child.stdout, child.stderr):
            stream.close()
        now = presented(store)
        assert counted + reported <= now <= counted + reported + 1, (kill, counted, reported, now)
        counted = now
    print(f"{KILLS} kills: {counted} presentations counted, every reported one kept")


def test_a_reached_cap_is_still_reached_after_kill_9(tmp_path):
    store = tmp_path / "store"
    bundle = {**CAPPED_BUNDLE, "placements": {"capped": {**CAPPED_BUNDLE["placements"]["capped"],
                                                          "cap": {"count": 3, "per_seconds": 86400}}}}
    child = start_child("present", store)
    while read_line(child)["presented"] < 3:
        pass
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    for stream in (child.stdin, child.stdout, child.stderr):
        stream.close()
    with paywire.Client(config(store, fallback={"bundle": bundle})) as client:
        answer = client.call("get_presentation", {"placement_id": "capped"})
    assert answer["decision"] == "capped" and answer["reason"] == "cap_reached", answer
    assert answer["cap"]["presented"] >= 3
