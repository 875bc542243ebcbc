"""No debris: a writer killed mid-write leaves `<key>.json.tmp.<pid>` files behind; the next
client to start removes exactly those, and nothing else in the directory."""
import json
import os
import random
import re
import signal
import sqlite3
import time

from helpers import config, paywire, read_line, start_child

KILLS = 60
DEBRIS = re.compile(r"^[a-z0-9-]+\.json\.tmp\.[0-9]{1,10}$")

# Files that are not a crashed writer's, and must survive a start: a host's own files, and names
# close to the pattern but not in it. (The outbox's live SQLite files are checked apart.)
OUTBOX_FILES = {"outbox.sqlite", "outbox.sqlite-wal", "outbox.sqlite-shm"}
FOREIGN_FILES = [
    "notes.txt", "profile.json.bak",
    "profile.json.tmp.", "profile.json.tmp.abc", "profile.json.tmp.12345678901", "Profile.json.tmp.1",
    "profile.json.tmp.1.old", "profile.tmp.1", "profile.json.tmp.1x", "a_b.json.tmp.1",
]


def kill_writers_mid_write(store, kills):
    """Starts a writer on `store` and kills it (SIGKILL) at a random moment, `kills` times;
    returns the temporary files each kill left (each next writer's start removes them)."""
    rng = random.Random(15)
    left = set()
    for _ in range(kills):
        child = start_child("write", store)
        assert read_line(child) == {"writing": True}
        time.sleep(rng.uniform(0.005, 0.06))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        for stream in (child.stdin, child.stdout, child.stderr):
            stream.close()
        left |= {path.name for path in store.iterdir() if DEBRIS.match(path.name)}
    return left


def test_a_start_after_60_kills_leaves_only_live_files_and_each_parses(tmp_path):
    store = tmp_path / "store"
    left_by_kills = kill_writers_mid_write(store, KILLS)
    still_there = sorted(path.name for path in store.iterdir() if DEBRIS.match(path.name))
    print(f"{KILLS} kills left {len(left_by_kills)} temporary files; every start removed the earlier ones, "
          f"{len(still_there)} left by the last kill")
    assert len(still_there) <= 2  # the last writer's, at most one per kind of record

    # Debris of every kind of record, whether or not the kills happened to leave some, and the
    # things that must not be touched: foreign files, a directory and a symlink named like debris.
    planted = ["profile.json.tmp.999999", "onboarding-answers-" + "0" * 32 + ".json.tmp.7",
               "placement-cache-" + "f" * 32 + ".json.tmp.4242", "onboarding-cache-" + "a" * 32 + ".json.tmp.1"]
    for name in planted + FOREIGN_FILES:
        (store / name).write_text("{\"half\": ")
    (store / "profile.json.tmp.31337").mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("not paywire's")
    (store / "placement-cache-ab.json.tmp.5").symlink_to(outside)

    paywire.Client(config(store)).close()

    names = sorted(path.name for path in store.iterdir())
    assert [name for name in names if DEBRIS.match(name) and (store / name).is_file()
            and not (store / name).is_symlink()] == []
    for name in FOREIGN_FILES + ["profile.json.tmp.31337", "placement-cache-ab.json.tmp.5"]:
        assert name in names, f"{name} was removed but is not a temporary file of Paywire's"
    assert outside.read_text() == "not paywire's"
    live = [name for name in names if name.endswith(".json") and name not in FOREIGN_FILES]
    assert "profile.json" in live and any(name.startswith("onboarding-answers-") for name in live), live
    for name in live:
        json.loads((store / name).read_text())
    # The outbox survived every kill and the start that cleaned up: a whole database.
    with sqlite3.connect(store / "outbox.sqlite") as outbox:
        assert outbox.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert sorted(set(names) - set(live) - set(FOREIGN_FILES) - OUTBOX_FILES) == sorted(
        ["paywire.lock", "profile.json.tmp.31337", "placement-cache-ab.json.tmp.5"])
    assert "outbox.sqlite" in names


def test_a_failed_write_leaves_no_temporary_file(tmp_path):
    """A write that fails (here: the temporary file's name is taken by a directory) removes
    what it made and names the file; the record keeps its old content."""
    store = tmp_path / "store"
    client = paywire.Client(config(store))
    client.call("update_profile", {"custom_attributes": {"before": 1}})
    blocker = store / f"profile.json.tmp.{os.getpid()}"
    blocker.mkdir()
    try:
        client.call("update_profile", {"custom_attributes": {"after": 2}})
        raise AssertionError("the write should have failed")
    except paywire.PaywireError as error:
        assert error.code == "storage_failed"
        assert error.details["path"] == str(store / "profile.json")
    assert client.call("get_profile")["custom_attributes"] == {"before": 1}
    client.close()
    blocker.rmdir()
    assert json.loads((store / "profile.json").read_text())["custom_attributes"] == {"before": 1}
