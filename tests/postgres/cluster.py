#!/usr/bin/env python3
"""A PostgreSQL of Debian's packages (postgresql-15) for a test run, and stopped after it.

    cluster.py [--durable] -- COMMAND ...

Makes a cluster in a new temporary directory (initdb; as the `postgres` user when run as root,
since PostgreSQL refuses to run as root), starts it on 127.0.0.1 on a free port with its socket
in that directory, runs COMMAND with PAYWIRE_TEST_POSTGRES=postgres://USER@127.0.0.1:PORT, then
stops the cluster and removes the directory, whatever COMMAND did. Without --durable the
cluster does not wait for the disk (fsync, synchronous_commit off: nothing here kills
PostgreSQL itself); `make bench` passes --durable, so both sides of its ratio pay for it.
"""
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time

BIN = "/usr/lib/postgresql/15/bin"


def as_cluster_user(command):
    """The command as the user the cluster runs as: `postgres` when we are root."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def cluster_user():
    return "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A running cluster: `url` is the superuser's, without a database."""

    def __init__(self, durable=False):
        if not os.path.exists(f"{BIN}/initdb"):
            raise SystemExit(f"no PostgreSQL 15 in {BIN}: `make deps` installs Debian's postgresql-15")
        self.directory = tempfile.mkdtemp(prefix="paywire-pg-")
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres", "postgres")
        self.data = os.path.join(self.directory, "data")
        self.port = free_port()
        subprocess.run(as_cluster_user([f"{BIN}/initdb", "-D", self.data, "-A", "trust", "-U", cluster_user(), "-E", "UTF8",
                                        "--locale=C"]), check=True, stdout=subprocess.DEVNULL, cwd=self.directory)
        settings = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.directory} -c max_connections=200"
        if not durable:
            settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        subprocess.run(as_cluster_user([f"{BIN}/pg_ctl", "-D", self.data, "-o", settings, "-l", os.path.join(self.directory, "log"),
                                        "-w", "-t", "60", "start"]), check=True, stdout=subprocess.DEVNULL, cwd=self.directory)
        self.url = f"postgres://{cluster_user()}@127.0.0.1:{self.port}"

    def stop(self):
        subprocess.run(as_cluster_user([f"{BIN}/pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.directory)
        shutil.rmtree(self.directory, ignore_errors=True)


def main():
    arguments = sys.argv[1:]
    durable = "--durable" in arguments[:arguments.index("--")] if "--" in arguments else False
    if "--" not in arguments or arguments.index("--") == len(arguments) - 1:
        raise SystemExit(__doc__)
    command = arguments[arguments.index("--") + 1:]
    started = time.monotonic()
    cluster = Cluster(durable=durable)
    try:
        print(f"postgres: {cluster.url} ({time.monotonic() - started:.1f} s to start)", flush=True)
        return subprocess.call(command, env={**os.environ, "PAYWIRE_TEST_POSTGRES": cluster.url})
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
