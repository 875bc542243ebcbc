#!/usr/bin/env python3
"""paywire-devserver on the test run's PostgreSQL (PAYWIRE_TEST_POSTGRES, see cluster.py):
a stand-in the tests and demos start in its place (PAYWIRE_DEVSERVER, or their DEVSERVER
argument), so the same suites run on both engines. `--data DIR` becomes a database named after
DIR (the same one when a test starts a server again on DIR, as a restart does); without it,
each server gets a database of its own. It then becomes the server (exec: same process, so
signals and kill -9 reach the server itself)."""
import hashlib
import os
import subprocess
import sys
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = os.environ.get("PAYWIRE_SERVER_ON_POSTGRES", os.path.join(ROOT, "build/bin/paywire-devserver"))


def database(url, name):
    """Creates `name` unless it exists; returns its URL."""
    exists = subprocess.run(["psql", url + "/postgres", "-Atc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
                            capture_output=True, text=True, check=True).stdout.strip()
    if not exists:
        subprocess.run(["psql", url + "/postgres", "-qc", f'CREATE DATABASE "{name}"'], check=True, stdout=subprocess.DEVNULL)
    return f"{url}/{name}?sslmode=disable"


def main():
    url = os.environ["PAYWIRE_TEST_POSTGRES"]
    arguments = sys.argv[1:]
    if "--data" in arguments:
        at = arguments.index("--data")
        name = "d_" + hashlib.sha1(os.path.abspath(arguments[at + 1]).encode()).hexdigest()[:20]
        del arguments[at:at + 2]
    else:
        name = "t_" + uuid.uuid4().hex[:20]
    os.execv(SERVER, [SERVER, *arguments, "--database", database(url, name)])


if __name__ == "__main__":
    main()
