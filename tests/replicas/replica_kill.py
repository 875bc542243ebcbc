#!/usr/bin/env python3
"""Replicas that share nothing but the database: none loses or doubles a record when one dies.

    replica_kill.py SERVER BUNDLE [SECONDS]

Three paywire-server replicas (no --dev: as production runs them) on one PostgreSQL (Debian's,
started for this run by tests/postgres/cluster.py's Cluster), behind nginx (Debian's) as the
load balancer. Four clients of the library (the Python binding, each with its own storage_dir,
as tests/outbox does) record exposures in a loop through nginx and print each event id once the
call that made it returned (the record is then in the device's outbox). Meanwhile replicas are
killed with SIGKILL mid-load and started again, one after another. The clients are then
killed too, and a last client per storage_dir flushes what is left. Every printed record must
be in PostgreSQL exactly once, and no outbox may hold anything: acknowledged = stored, none
lost, none twice.
"""
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "postgres"))

import paywire  # noqa: E402
from cluster import Cluster  # noqa: E402

REPLICAS = 3
CLIENTS = 4
NGINX = "/usr/sbin/nginx"
CHILD = """
import sys, time, paywire
storage_dir, base_url, bundle, profile = sys.argv[1:5]
client = paywire.Client({
    "profile_id": profile, "storage_dir": storage_dir, "fallback": {"path": bundle},
    "transport": {"type": "http", "base_url": base_url, "request_timeout_ms": 2000},
    "analytics": {"flush_at": 10, "flush_interval_ms": 50, "exposure_flush_delay_ms": 20,
                  "retry_min_ms": 10, "retry_max_ms": 200, "close_flush_ms": 0},
})
paywall = client.call("get_paywall", {"placement_id": "onboarding", "load_timeout": 1})
print("ready", flush=True)
while True:
    print(client.call("log_show_paywall", {"paywall": paywall})["event_id"], flush=True)
    time.sleep(0.002)
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Replica:
    def __init__(self, server, bundle, database, port, log):
        self.command = [server, "--bundle", bundle, "--database", database, "--port", str(port), "--db-pool-size", "4",
                        "--log-level", "warning"]
        self.port, self.log = port, log
        self.start()

    def start(self):
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            raise SystemExit(f"replica on {self.port} did not start: {line!r}")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


def nginx(directory, ports):
    """nginx on a free port, round-robin over the replicas; a request that cannot reach one
    (refused, reset, timed out) goes to the next, POSTs included: the database's unique keys
    make the second try harmless."""
    listen = free_port()
    upstreams = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=1s;" for port in ports)
    config = os.path.join(directory, "nginx.conf")
    with open(config, "w") as out:
        out.write(f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
daemon off;
pid {directory}/nginx.pid;
error_log {directory}/nginx-error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    upstream paywire {{
{upstreams}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{listen};
        location / {{
            proxy_pass http://paywire;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_next_upstream error timeout http_502 http_503 non_idempotent;
            proxy_connect_timeout 1s;
            proxy_read_timeout 5s;
        }}
    }}
}}
""")
    process = subprocess.Popen([NGINX, "-p", directory, "-c", config], stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", listen), timeout=1).close()
            return process, f"http://127.0.0.1:{listen}"
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("nginx did not start")


def same_batch_everywhere(ports, rounds=20):
    """The same batch posted to every replica at once, `rounds` times: each record is accepted
    by exactly one of them (the database's key decides, not any replica's memory). Returns
    (records sent, accepted in all, answered as duplicates in all)."""
    sent = accepted = duplicates = 0
    for round_index in range(rounds):
        batch = json.dumps({"records": [{
            "event_id": str(uuid.uuid4()), "install_id": "i", "profile_id": "replica-race", "session_id": "s",
            "created_at": 1732300000000, "seq": round_index * 10 + i + 1, "name": "app_opened", "params": {},
            "app": {"platform": "linux"}, "sdk": {"version": "0"}} for i in range(10)]}).encode()
        answers = []

        def post(port):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("POST", "/v1/events", body=batch, headers={"content-type": "application/json"})
            response = connection.getresponse()
            answers.append((response.status, json.loads(response.read())))
            connection.close()

        threads = [threading.Thread(target=post, args=(port,)) for port in ports]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(status == 200 for status, _ in answers), answers
        sent += 10
        accepted += sum(body["accepted"] for _, body in answers)
        duplicates += sum(body["duplicates"] for _, body in answers)
    return sent, accepted, duplicates


def psql(url, query):
    return subprocess.run(["psql", url, "-Atc", query], capture_output=True, text=True, check=True).stdout.split()


def main():
    server, bundle = sys.argv[1], os.path.abspath(sys.argv[2])
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 12
    rng = random.Random(20261125)
    cluster = Cluster()
    work = tempfile.mkdtemp(prefix="paywire-replicas-")
    replicas, children, balancer = [], [], None
    try:
        subprocess.run(["psql", cluster.url + "/postgres", "-qc", "CREATE DATABASE paywire"], check=True)
        database = cluster.url + "/paywire?sslmode=disable"
        log = open(os.path.join(work, "replicas.log"), "w")
        replicas = [Replica(server, bundle, database, free_port(), log) for _ in range(REPLICAS)]
        balancer, url = nginx(work, [replica.port for replica in replicas])
        for index in range(CLIENTS):
            # Into a file, not a pipe: a full pipe would stop the child, not the server.
            with open(os.path.join(work, f"ids-{index}"), "w") as ids:
                child = subprocess.Popen([sys.executable, "-c", CHILD, os.path.join(work, f"device-{index}"), url, bundle,
                                          f"replica-{index}"], stdout=ids, stderr=subprocess.PIPE, text=True)
            children.append(child)
        for index in range(CLIENTS):
            while open(os.path.join(work, f"ids-{index}")).readline() != "ready\n":
                assert children[index].poll() is None, children[index].stderr.read()
                time.sleep(0.05)
        kills, deadline = 0, time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(rng.uniform(0.8, 1.6))
            victim = rng.choice(replicas)
            victim.kill()
            kills += 1
            time.sleep(rng.uniform(0.3, 1.0))
            victim.start()
        produced = []
        for index, child in enumerate(children):
            child.send_signal(signal.SIGKILL)
            child.wait()
            with open(os.path.join(work, f"ids-{index}")) as ids:
                # The last line may be cut mid-write by the kill: only whole lines were returned.
                produced += [line for line in ids.read().split("\n")[:-1] if len(line) == 36]
        remaining = 0
        for index in range(CLIENTS):
            with paywire.Client({"profile_id": f"replica-{index}", "storage_dir": os.path.join(work, f"device-{index}"),
                                 "fallback": {"path": bundle}, "transport": {"type": "http", "base_url": url, "request_timeout_ms": 2000},
                                 "analytics": {"retry_min_ms": 10, "retry_max_ms": 200}}) as last:
                remaining += last.call("flush_analytics", {"timeout_ms": 60000})["remaining"]
        summary = psql(database.split("?")[0], "SELECT COALESCE(SUM(duplicates), 0) FROM event_batches")
        raced = same_batch_everywhere([replica.port for replica in replicas])
        stored = psql(database.split("?")[0], "SELECT event_id FROM events WHERE profile_id LIKE 'replica-%' AND profile_id <> 'replica-race'")
        raced_stored = int(psql(database.split("?")[0], "SELECT COUNT(*) FROM events WHERE profile_id = 'replica-race'")[0])
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
        if balancer:
            balancer.terminate()
            balancer.wait(timeout=20)
        for replica in replicas:
            replica.stop()
        cluster.stop()
        with open(os.path.join(work, "replicas.log")) as log:
            errors = [line for line in log if '"level":"error"' in line or '"level":"critical"' in line]
        shutil.rmtree(work, ignore_errors=True)
    lost = sorted(set(produced) - set(stored))
    twice = len(stored) - len(set(stored))
    print(f"replicas: {REPLICAS} behind nginx on one PostgreSQL, {CLIENTS} clients, {kills} kill -9 and restarts in {seconds:.0f} s; "
          f"produced {len(produced)}, stored {len(set(stored))} (of which {len(set(stored) - set(produced))} committed but not yet "
          f"printed when the clients were killed), sent again and deduplicated {summary[0]}, stored twice {twice}, lost {len(lost)}, "
          f"left in the outboxes {remaining}; the same batch to all {REPLICAS} replicas at once: {raced[0]} records sent, "
          f"{raced[1]} accepted, {raced[2]} answered as duplicates, {raced_stored} stored")
    if lost or twice or remaining or kills == 0 or len(produced) < 100 or raced[1] != raced[0] or raced_stored != raced[0] \
            or raced[2] != raced[0] * (REPLICAS - 1):
        print("lost:", lost[:20])
        print("".join(errors[-20:]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
