"""Limits per device, now that devices hold credentials of their own: requests are limited per
profile credential (`--rate-limit-device`), so one device cannot spend the budget of everyone
behind its address, nor hide behind a shared one; and a device's credential survives the device
being killed at the worst moment. The server hands a credential out once, and a credential it
takes is one the device will send again: the device is killed with SIGKILL between the server's
answer and the credential's write, and at moments around it, and started again from what it
left in `storage_dir`: the file is whole or absent (written aside and renamed), and the profile
is the device's again, never `401` (a credential the device never kept was never used, and the
server issues another to a profile no request has carried one of)."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import pytest

import paywire
from attacker import APP_KEY, CREDENTIAL_HEADER, Account, RewritingProxy, segment, unique
from conftest import Target
from server_helpers import BACKEND_BUNDLE

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(params=["development", "production"])
def limited_devices(request, tmp_path):
    """A server that lets each device 2 requests a second, in bursts of 10."""
    server = Target(request.param, tmp_path, "--rate-limit-device", "2")
    yield server
    server.stop()


def test_a_device_is_limited_on_its_own_credential_not_on_its_address(limited_devices):
    busy, quiet = Account(limited_devices, unique("busy")), Account(limited_devices, unique("quiet"))
    path = f"/v1/profiles/{segment(busy.id)}"
    assert busy.call("GET", path)[0] == 404 and busy.credential, "the first request carries no credential: minted"
    start, served = time.monotonic(), 0
    while True:
        status, headers, body = busy.call("GET", path)
        if status == 429:
            break
        assert status == 404 and served < 100, (status, body)
        served += 1
    assert body["error"]["code"] == "rate_limited" and "this device" in body["error"]["message"] and int(headers["retry-after"]) >= 1
    assert 10 <= served <= 10 + 2 * (time.monotonic() - start) + 1, served
    # Another device behind the same address is served: the busy one spent only its own.
    assert quiet.call("GET", f"/v1/profiles/{segment(quiet.id)}")[0] == 404
    assert quiet.call("GET", f"/v1/profiles/{segment(quiet.id)}")[0] == 404


DEVICE = """
import json, sys, time
import paywire
client = paywire.Client(json.loads(sys.argv[1]))
print("started", flush=True)
client.call("get_profile", {"fetch_policy": "reload_revalidating_cache_data"})
print("used", flush=True)
time.sleep(60)
"""


def config(proxy_url, storage_dir, profile_id):
    return {"profile_id": profile_id, "api_key": APP_KEY, "storage_dir": str(storage_dir),
            "transport": {"type": "http", "base_url": proxy_url, "request_timeout_ms": 5000},
            "refresh_profile_on_start": True, "fallback": {"path": str(BACKEND_BUNDLE)},
            "analytics": {"flush_interval_ms": 600000, "retry_min_ms": 50, "retry_max_ms": 200}}


class Exchanges:
    """What the device and the server said to each other through the proxy; `kill`, when set,
    runs once, when an answer handing out a credential is about to go back to the device."""

    def __init__(self):
        self.seen, self.lock, self.kill = [], threading.Lock(), None

    def rewrite(self, method, path, headers, body):
        with self.lock:
            self.seen.append(("request", path, any(name.lower() == CREDENTIAL_HEADER for name in headers)))
        return headers, body

    def answered(self, method, path, status, headers):
        with self.lock:
            self.seen.append(("answer", path, status, CREDENTIAL_HEADER in headers))
            kill = None
            if CREDENTIAL_HEADER in headers:
                kill, self.kill = self.kill, None
        if kill:
            kill()

    def statuses(self):
        with self.lock:
            return [entry[2] for entry in self.seen if entry[0] == "answer"]


def kept(storage_dir):
    """The credentials file as the device left it: whole JSON of well-formed credentials, or absent."""
    path = storage_dir / "profile-credentials.json"
    if not path.exists():
        return {}
    credentials = json.loads(path.read_text())
    assert isinstance(credentials, dict) and all(len(value) == 43 for value in credentials.values()), credentials
    return credentials


#: When the device dies: (kill at once when the answer is back at the proxy, delay after it is
#: passed on), per attempt. The delays sweep the moments the device reads the answer and writes.
MOMENTS = {
    "before the answer reaches it": [(True, None)],
    "while it reads and keeps the answer": [(False, 0.0015 * attempt) for attempt in range(12)],
    "after it used the credential": [(False, None)],
}


@pytest.mark.parametrize("moment", list(MOMENTS))
def test_a_device_killed_around_its_first_answer_keeps_its_profile(target, tmp_path, moment):
    exchanges = Exchanges()
    proxy = RewritingProxy(target.server.port, exchanges.rewrite, exchanges.answered)
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "bindings/python") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    try:
        for attempt, (at_once, delay) in enumerate(MOMENTS[moment]):
            profile_id, storage_dir = unique("killed"), tmp_path / f"device-{attempt}"
            device = subprocess.Popen([sys.executable, "-c", DEVICE, json.dumps(config(proxy.url, storage_dir, profile_id))],
                                      stdout=subprocess.PIPE, env=environment)
            if at_once:
                exchanges.kill = lambda device=device: device.send_signal(signal.SIGKILL)
            elif delay is not None:
                exchanges.kill = lambda device=device, delay=delay: threading.Timer(delay, device.send_signal, (signal.SIGKILL,)).start()
            else:
                assert device.stdout.readline().strip() == b"started" and device.stdout.readline().strip() == b"used"
                device.send_signal(signal.SIGKILL)
            device.wait(20)
            assert device.returncode == -signal.SIGKILL, device.returncode
            left = kept(storage_dir)
            # Started again from what it left: served, never refused, its credential kept.
            with paywire.Client(config(proxy.url, storage_dir, profile_id)) as app:
                app.call("get_profile", {"fetch_policy": "reload_revalidating_cache_data"})
            assert 401 not in exchanges.statuses(), (moment, attempt, exchanges.seen)
            now = kept(storage_dir)
            assert profile_id in now and now[profile_id] == left.get(profile_id, now[profile_id]), (left, now)
            assert not [name for name in os.listdir(storage_dir) if ".tmp." in name], "a half-written file was left"
            owner = Account(target, profile_id)
            assert owner.call("GET", f"/v1/profiles/{segment(profile_id)}", credential=now[profile_id])[0] in (200, 404)
            assert owner.call("GET", f"/v1/profiles/{segment(profile_id)}")[0] == 401, "the profile is the device's"
    finally:
        proxy.close()
