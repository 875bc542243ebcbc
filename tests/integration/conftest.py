"""Fixtures for the integration tests: a real paywire-devserver on loopback, and clients of
the real library talking to it over HTTP with the built-in transport."""
import json
import os
import pathlib
import subprocess
import time
import urllib.request

import pytest

import paywire

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEVSERVER = os.environ.get("PAYWIRE_DEVSERVER", str(ROOT / "build/bin/paywire-devserver"))
BACKEND_BUNDLE = ROOT / "examples/bundle.json"
#: What the backend serves is this new; the app's own fallback bundle is older.
BACKEND_CREATED_AT = json.loads(BACKEND_BUNDLE.read_text())["response_created_at"]
FALLBACK_CREATED_AT = 1700000000000


class DevServer:
    """A running paywire-devserver and its control endpoints."""

    def __init__(self, *extra_args):
        self.process = subprocess.Popen(
            [DEVSERVER, "--bundle", str(BACKEND_BUNDLE), *extra_args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            self.process.kill()
            raise RuntimeError(f"devserver did not start: {line!r} {self.process.stderr.read()}")
        self.url = line.split()[2]

    def control(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + "/_dev/" + path, data=data, method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def faults(self, **faults):
        return self.control("POST", "faults", faults)

    def stats(self):
        return self.control("GET", "stats")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def devserver():
    server = DevServer()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def clean_server(request):
    """Each test starts with no faults, no counts, and no request of an earlier test still
    being answered (a slow one would land in this test's counts)."""
    if "devserver" in request.fixturenames:
        server = request.getfixturevalue("devserver")
        server.control("POST", "faults", {})
        deadline = time.monotonic() + 15
        while server.stats()["in_flight"] and time.monotonic() < deadline:
            time.sleep(0.05)
        server.control("POST", "reset")


@pytest.fixture
def fallback_path(tmp_path):
    """The app's bundle: the backend's placements, exported earlier (older response_created_at)."""
    bundle = json.loads(BACKEND_BUNDLE.read_text())
    bundle["response_created_at"] = FALLBACK_CREATED_AT
    path = tmp_path / "fallback.json"
    path.write_text(json.dumps(bundle))
    return str(path)


@pytest.fixture
def make_client(devserver, fallback_path, tmp_path):
    """Clients with the built-in transport pointed at the devserver; closed after the test."""
    clients = []

    def make(storage_dir=None, fallback=True, base_url=None, **transport):
        config = {
            "profile_id": "integration-profile",
            "transport": {"type": "http", "base_url": base_url or devserver.url, **transport},
        }
        if fallback:
            config["fallback"] = {"path": fallback_path}
        if storage_dir is not None:
            config["storage_dir"] = str(storage_dir)
        client = paywire.Client(config)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


def logs(client, timeout=0.2):
    """The log events waiting on `client`."""
    return [event for event in client.events(timeout) if event["event"] == "log"]


def fallback_log(client):
    """The one log event saying which source served instead of the network."""
    found = [event for event in logs(client) if "source" in event.get("details", {})]
    assert len(found) == 1, found
    return found[0]["details"]
