#!/usr/bin/env python3
"""(f) Events acknowledged per second by paywire-server (release, no --dev), against the same rows
stored directly, on each engine; (g) latency of POST /v1/events under a paced load from wrk.

(f) Batches of 100 records on one keep-alive connection, each counted when its 200
{"accepted": 100} has been read; median of 5 rounds. The baseline, measured in the same run, is
what the server writes for those batches, written by this load generator's side with no HTTP,
no JSON and no checks: the same events rows (INSERT ... ON CONFLICT DO NOTHING on a unique
event_id, the same index) and the batch's row, one transaction a batch, as durably:
- SQLite: Python's sqlite3 into a WAL file with synchronous NORMAL (what GRDB sets).
- PostgreSQL: psql running the same statements against the same cluster (Debian's
  postgresql-15, started with its durable defaults: fsync and synchronous_commit on).
So each ratio says what the server's whole request path costs on top of its storage floor.

(g) wrk (Debian's, which has no rate option) with paced connections: each waits 20 ms after
each answer (bench/wrk_events.lua), 10 connections, batches of 10 fresh records: a load near
500 requests a second, whose achieved rate is printed beside the p50 and p99. A closed loop of
this kind under-reports the tail when the server stalls (a stalled connection sends nothing),
which is why the rate is shown too.

usage: server_events.py SERVER BUNDLE
"""
import json
import os
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "postgres"))
from cluster import Cluster  # noqa: E402

BATCH = 100
BATCHES = 60          # 6,000 records a round
ROUNDS = 5
TARGET_RATIO = 0.5
EVENTS_DDL = """
CREATE TABLE IF NOT EXISTS events (arrival {key}, event_id TEXT NOT NULL UNIQUE, profile_id TEXT NOT NULL, name TEXT NOT NULL,
    placement_id TEXT, ab_test_name TEXT, variation_id TEXT, record TEXT NOT NULL, shown_at BIGINT, forced BOOLEAN NOT NULL DEFAULT FALSE);
CREATE INDEX IF NOT EXISTS events_by_exposure ON events(placement_id, ab_test_name, variation_id, profile_id, forced, shown_at)
    WHERE name = 'paywall_shown';
CREATE TABLE IF NOT EXISTS event_batches (id {key}, accepted INTEGER NOT NULL, duplicates INTEGER NOT NULL, dropped BIGINT NOT NULL);
"""


def records(round_index):
    """Records shaped like the core's, distinct per round (so every round stores anew)."""
    return [{
        "event_id": str(uuid.UUID(int=(round_index << 64) | i)), "install_id": "2b1f9c7e-1111-4222-8333-444455556666",
        "profile_id": f"profile-{i % 500}", "session_id": "s-1", "created_at": 1732300000000 + i, "seq": i + 1,
        "name": "paywall_shown",
        "params": {"placement_id": "onboarding", "audience_name": "All Users", "revision": 3,
                   "ab_test_name": "onboarding_annual_first", "variation_id": "onboarding-monthly-first",
                   "paywall_id": "pw-onboarding-a", "paywall_name": "Onboarding: monthly first"},
        "app": {"platform": "linux", "app_version": "2.1.0"}, "sdk": {"version": "0.1.0"}} for i in range(BATCH * BATCHES)]


def rows(made):
    return [(r["event_id"], r["profile_id"], r["name"], r["params"]["placement_id"], r["params"]["ab_test_name"],
             r["params"]["variation_id"], r["created_at"], False, json.dumps(r, separators=(",", ":"))) for r in made]


def start_server(server, bundle, database):
    process = subprocess.Popen([server, "--bundle", bundle, "--database", database, "--port", "0", "--log-level", "warning"],
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith("listening on "):
        process.kill()
        sys.exit(f"server did not start: {line!r}")
    return process, int(line.split()[2].rsplit(":", 1)[1])


def server_round(port, made):
    """Requests written whole, answers read to their end: the client's own cost is a send and a
    receive a batch, so the rate is the server's."""
    requests = []
    for i in range(0, len(made), BATCH):
        body = json.dumps({"records": made[i:i + BATCH]}).encode()
        requests.append(b"POST /v1/events HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: "
                        + str(len(body)).encode() + b"\r\n\r\n" + body)
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    reader = connection.makefile("rb")
    started = time.perf_counter()
    for request in requests:
        connection.sendall(request)
        status = reader.readline()
        length = 0
        while (line := reader.readline()) != b"\r\n":
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        answer = json.loads(reader.read(length))
        if b" 200 " not in status or answer["accepted"] != BATCH:
            sys.exit(f"server answered {status!r} {answer}")
    elapsed = time.perf_counter() - started
    connection.close()
    return len(made) / elapsed


def sqlite_round(path, made):
    prepared = rows(made)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")   # what GRDB sets in WAL mode: durable across a crash of the process
    db.executescript(EVENTS_DDL.format(key="INTEGER PRIMARY KEY AUTOINCREMENT"))
    started = time.perf_counter()
    for i in range(0, len(prepared), BATCH):
        db.execute("BEGIN")
        cursor = db.executemany("INSERT INTO events (event_id, profile_id, name, placement_id, ab_test_name, variation_id, shown_at,"
                                " forced, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING",
                                prepared[i:i + BATCH])
        db.execute("INSERT INTO event_batches (accepted, duplicates, dropped) VALUES (?, ?, 0)", (cursor.rowcount, BATCH - cursor.rowcount))
        db.execute("COMMIT")
    elapsed = time.perf_counter() - started
    db.close()
    return len(prepared) / elapsed


def quote(value):
    if isinstance(value, (bool, int)):
        return str(value).upper()
    return "'" + value.replace("'", "''") + "'"


def postgres_round(url, made, scratch):
    """The same statements through psql: one script, timed as a whole (a connection and the
    script's parse are in it, against the server's pool already open: the baseline pays a few
    milliseconds the server does not)."""
    prepared = rows(made)
    script = os.path.join(scratch, "direct.sql")
    with open(script, "w") as out:
        out.write("\\set ON_ERROR_STOP on\n")
        for i in range(0, len(prepared), BATCH):
            values = ", ".join("(" + ", ".join(quote(v) for v in row) + ")" for row in prepared[i:i + BATCH])
            out.write("BEGIN;\nWITH inserted AS (INSERT INTO events (event_id, profile_id, name, placement_id, ab_test_name, "
                      f"variation_id, shown_at, forced, record) VALUES {values} ON CONFLICT (event_id) DO NOTHING RETURNING 1)\n"
                      f"INSERT INTO event_batches (accepted, duplicates, dropped) SELECT count(*), {BATCH} - count(*), 0 FROM inserted;\n"
                      "COMMIT;\n")
    started = time.perf_counter()
    subprocess.run(["psql", "-q", "-X", url, "-f", script], check=True, stdout=subprocess.DEVNULL)
    return len(prepared) / (time.perf_counter() - started)


def line(label, rate, baseline_label, baseline):
    ratio = rate / baseline
    print(f"{label:<44} {rate:9.0f} /s   {baseline_label:<28} {baseline:9.0f} /s   ratio {ratio:7.3f}   "
          f"target >= {TARGET_RATIO}: {'ok' if ratio >= TARGET_RATIO else 'MISSED'}")


def throughput(server, bundle, cluster, scratch):
    process, port = start_server(server, bundle, f"sqlite:{scratch}/server.sqlite")
    served, direct = [], []
    try:
        for round_index in range(ROUNDS):
            made = records(round_index)
            served.append(server_round(port, made))
            direct.append(sqlite_round(os.path.join(scratch, "direct.sqlite"), made))
    finally:
        process.terminate()
        process.wait(timeout=20)
    line("(f) server on SQLite: events acknowledged / s", statistics.median(served), "sqlite3 direct, same rows",
         statistics.median(direct))
    for name in ("served", "direct"):
        subprocess.run(["psql", "-q", cluster.url + "/postgres", "-c", f"CREATE DATABASE {name}"], check=True)
    direct_url = cluster.url + "/direct"
    subprocess.run(["psql", "-q", direct_url, "-c", EVENTS_DDL.format(key="BIGSERIAL PRIMARY KEY")], check=True)
    process, port = start_server(server, bundle, cluster.url + "/served?sslmode=disable")
    served, direct = [], []
    try:
        for round_index in range(ROUNDS):
            made = records(round_index)
            served.append(server_round(port, made))
            direct.append(postgres_round(direct_url, made, scratch))
    finally:
        process.terminate()
        process.wait(timeout=20)
    line("(f) server on PostgreSQL: events ack'd / s", statistics.median(served), "psql direct, same rows", statistics.median(direct))


def latency(server, bundle, database, engine):
    process, port = start_server(server, bundle, database)
    try:
        done = subprocess.run(["wrk", "-t", "2", "-c", "10", "-d", "10s", "--latency", "-s", os.path.join(HERE, "wrk_events.lua"),
                               f"http://127.0.0.1:{port}"], capture_output=True, text=True, check=True).stdout
    finally:
        process.terminate()
        process.wait(timeout=20)
    found = dict(re.findall(r"^paywire (\w+) ([\d.]+)$", done, re.M))
    if found.get("errors", "1") != "0":
        sys.exit(f"wrk saw errors or non-2xx answers:\n{done}")
    print(f"(g) POST /v1/events, 10 records, {engine:<10}  p50 {float(found['p50']) / 1000:6.2f} ms   p99 "
          f"{float(found['p99']) / 1000:6.2f} ms   at {float(found['rate']):5.0f} requests/s (wrk, 10 connections paced 20 ms)")


def main():
    server, bundle = sys.argv[1], os.path.abspath(sys.argv[2])
    cluster = Cluster(durable=True)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            throughput(server, bundle, cluster, scratch)
            latency(server, bundle, f"sqlite:{scratch}/latency.sqlite", "SQLite")
            subprocess.run(["psql", "-q", cluster.url + "/postgres", "-c", "CREATE DATABASE latency"], check=True)
            latency(server, bundle, cluster.url + "/latency?sslmode=disable", "PostgreSQL")
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
