#!/usr/bin/env python3
"""(f) Events acknowledged per second by the dev server on loopback, in batches of 100
records, stored durably (--data: SQLite in WAL mode, synchronous NORMAL as GRDB sets it: a
acknowledged batch survives the server being killed, one transaction a
batch), against a baseline measured in the same run: the same rows inserted into SQLite
directly by this load generator's language (Python's sqlite3, WAL, synchronous NORMAL, one
transaction per 100 rows, INSERT OR IGNORE on a unique event_id). The baseline is the cost
of storing the same rows just as durably with no HTTP, no JSON and no checks, so the ratio
says what the server's whole request path costs on top of its storage floor.

Bodies are encoded before timing starts; one keep-alive connection sends batches in turn,
and each batch counts when its 200 {"accepted": 100} has been read. Median of 5 rounds.

usage: devserver_events.py DEVSERVER BUNDLE
"""
import http.client
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

BATCH = 100
BATCHES = 60          # 6,000 records a round
ROUNDS = 5
TARGET = 20_000       # records acknowledged per second


def records(round_index):
    """Records shaped like the core's, distinct per round (so every round stores anew)."""
    made = []
    for i in range(BATCH * BATCHES):
        made.append({
            "event_id": str(uuid.UUID(int=(round_index << 64) | i)), "install_id": "2b1f9c7e-1111-4222-8333-444455556666",
            "profile_id": f"profile-{i % 500}", "session_id": "s-1", "created_at": 1732300000000 + i, "seq": i + 1,
            "name": "paywall_shown",
            "params": {"placement_id": "onboarding", "audience_name": "All Users", "revision": 3,
                       "ab_test_name": "onboarding_annual_first", "variation_id": "onboarding-monthly-first",
                       "paywall_id": "pw-onboarding-a", "paywall_name": "Onboarding: monthly first"},
            "app": {"platform": "linux", "app_version": "2.1.0"}, "sdk": {"version": "0.1.0"}})
    return made


def server_round(port, rows):
    bodies = [json.dumps({"records": rows[i:i + BATCH]}).encode() for i in range(0, len(rows), BATCH)]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"content-type": "application/json"}
    started = time.perf_counter()
    for body in bodies:
        connection.request("POST", "/v1/events", body=body, headers=headers)
        response = connection.getresponse()
        answer = json.loads(response.read())
        if response.status != 200 or answer["accepted"] != BATCH:
            sys.exit(f"devserver answered {response.status} {answer}")
    elapsed = time.perf_counter() - started
    connection.close()
    return len(rows) / elapsed


def sqlite_round(path, rows):
    """The same rows, as the server stores them (columns and JSON text), straight into SQLite."""
    prepared = [(r["event_id"], r["profile_id"], r["name"], r["params"]["placement_id"], r["params"]["ab_test_name"],
                 r["params"]["variation_id"], json.dumps(r, separators=(",", ":"))) for r in rows]
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")   # what GRDB sets in WAL mode: durable across a crash of the process
    db.execute("""CREATE TABLE IF NOT EXISTS events (arrival INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE,
                  profile_id TEXT NOT NULL, name TEXT NOT NULL, placement_id TEXT, ab_test_name TEXT, variation_id TEXT,
                  record TEXT NOT NULL)""")
    db.execute("CREATE INDEX IF NOT EXISTS events_by_exposure ON events(placement_id, ab_test_name, variation_id, profile_id)"
               " WHERE name = 'paywall_shown'")
    started = time.perf_counter()
    for i in range(0, len(prepared), BATCH):
        db.execute("BEGIN")
        db.executemany("INSERT OR IGNORE INTO events (event_id, profile_id, name, placement_id, ab_test_name, variation_id, record)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)", prepared[i:i + BATCH])
        db.execute("COMMIT")
    elapsed = time.perf_counter() - started
    db.close()
    return len(prepared) / elapsed


def main():
    devserver, bundle = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as scratch:
        server = subprocess.Popen([devserver, "--bundle", bundle, "--data", os.path.join(scratch, "server")],
                                  stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            port = int(line.split()[2].rsplit(":", 1)[1])
            served, direct = [], []
            for round_index in range(ROUNDS):
                rows = records(round_index)
                served.append(server_round(port, rows))
                direct.append(sqlite_round(os.path.join(scratch, "direct.sqlite"), rows))
        finally:
            server.terminate()
            server.wait(timeout=10)
    rate, baseline = statistics.median(served), statistics.median(direct)
    print(f"{'(f) dev server: events acknowledged / s':<44} {rate:9.0f} /s   {'sqlite3 direct, same rows':<28} "
          f"{baseline:9.0f} /s   ratio {rate / baseline:7.3f}   target >= {TARGET} /s: {'ok' if rate >= TARGET else 'MISSED'}")


if __name__ == "__main__":
    main()
