"""A real paywire server on loopback for the suites that test it over HTTP (tests/integration,
tests/security): the development server or the production binary, on SQLite or on the
PostgreSQL tests/postgres/cluster.py started; clients of the real library talking to it with
the built-in transport; and the records, claims and signatures a device sends. Each suite's
conftest.py imports what it uses from here, fixtures included, so the two suites share one
copy."""
import hashlib
import hmac
import http.client
import json
import os
import pathlib
import subprocess
import sys
import time
import urllib.request
import uuid

import pytest

import paywire

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
from operator_key import OperatorKey  # noqa: E402
import timeshift  # noqa: E402  (beside this file)

if timeshift.OFFSET_MS:
    class _ClientOnTheRunsDate(paywire.Client):
        """A client of the library on the run's date (tests/timeshift.py): the servers these
        tests start read the same offset from the environment."""

        def __init__(self, config=None):
            super().__init__(timeshift.client_config(config or {}))

    paywire.Client = _ClientOnTheRunsDate

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEVSERVER = os.environ.get("PAYWIRE_DEVSERVER", str(ROOT / "build/bin/paywire-devserver"))
#: The suite runs on SQLite, or on PostgreSQL when tests/postgres/cluster.py started one for it
#: (PAYWIRE_DEVSERVER is then tests/postgres/devserver_on_postgres.py).
ON_POSTGRES = bool(os.environ.get("PAYWIRE_TEST_POSTGRES"))
#: The server itself, without --dev (what production runs).
SERVER = os.environ.get("PAYWIRE_SERVER", str(ROOT / "build/dev/paywire-server"))
BACKEND_BUNDLE = ROOT / "examples/bundle.json"


def bundle_signature(pem_path, bundle=BACKEND_BUNDLE):
    """config `fallback.signature` of `bundle`, as `paywire-server --sign-bundle` prints it with
    the operator's response signing key: what an app with response_verification ships beside
    the file (enforced mode refuses a bundle without it)."""
    run = subprocess.run([SERVER, "--sign-bundle", str(bundle), "--response-signing-key", str(pem_path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)
#: The test-store catalog the dev server grants from (store.products of the example config).
PRODUCTS = ROOT / "examples/config.json"
#: What the backend serves is this new; the app's own fallback bundle is older.
BACKEND_CREATED_AT = json.loads(BACKEND_BUNDLE.read_text())["response_created_at"]
FALLBACK_CREATED_AT = 1700000000000


def database_url(directory):
    """The store a production-mode server in a test uses: an SQLite file in `directory`, or on
    PostgreSQL a database of its own."""
    if not ON_POSTGRES:
        return f"sqlite:{directory}/server.sqlite"
    sys.path.insert(0, str(ROOT / "tests/postgres"))
    from devserver_on_postgres import database
    return database(os.environ["PAYWIRE_TEST_POSTGRES"], "s_" + uuid.uuid4().hex[:20])


class DevServer:
    """A running paywire-devserver (or, with `executable=SERVER`, the server without --dev)
    and its control endpoints. It holds an operator key with every scope, made fresh for it,
    which its requests carry unless told otherwise: operator routes (the development routes
    among them) are as shut with --dev as without."""

    def __init__(self, *extra_args, executable=None, env=None, files=True, operator=True, preexec_fn=None):
        """`files`: pass the example bundle and catalog (else the arguments or `env` name them).
        `operator`: give the server this fixture's operator key (else the arguments do, or none).
        `preexec_fn`: runs in the server's process before it starts (its resource limits)."""
        defaults = ["--bundle", str(BACKEND_BUNDLE), "--products", str(PRODUCTS)] if files else []
        self.operator = OperatorKey("integration")
        keys = self.operator.server_args() if operator else []
        # The server without --dev listens on 8080 unless told: tests run side by side (xdist
        # workers, the SQLite and PostgreSQL stages), so each takes a free port unless it names one.
        if "--port" not in extra_args and "PAYWIRE_PORT" not in (env or {}):
            keys += ["--port", "0"]
        self.process = subprocess.Popen(
            [executable or DEVSERVER, *defaults, *keys, *extra_args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, preexec_fn=preexec_fn)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            self.process.kill()
            raise RuntimeError(f"devserver did not start: {line!r} {self.process.stderr.read()}")
        self.url = line.split()[2]

    def control(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + "/_dev/" + path, data=data, method=method, headers=self.operator.headers())
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def faults(self, **faults):
        return self.control("POST", "faults", faults)

    def stats(self):
        return self.control("GET", "stats")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)

    @property
    def port(self):
        return int(self.url.rsplit(":", 1)[1])

    def call(self, method, path, body=None, headers=None, timeout=10, operator=True):
        """One request on a new connection: (status, headers, parsed JSON body or None). It
        carries the fixture's operator key unless `headers` name an authorization or `operator`
        is false (an app's request, or none at all).
        Raises http.client.RemoteDisconnected (a ConnectionError) when the server closes
        the connection without a response."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
            given = {"content-type": "application/json", "x-paywire-profile-id": "integration-test", **(headers or {})}
            if operator and not any(name.lower() == "authorization" for name in given):
                given.update(self.operator.headers())
            connection.request(method, path, body=data, headers=given)
            response = connection.getresponse()
            raw = response.read()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw
            return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed
        finally:
            connection.close()

    def post_events(self, records, **extra):
        return self.call("POST", "/v1/events", {"records": records, **extra})


#: The key the dev server checks test-store signatures with unless told otherwise.
DEV_SIGNING_KEY = "paywire-dev-signing-key"
_event_counter = [0]


def event_id():
    """A fresh lowercase UUID v7-shaped id (time-ordered prefix, counter suffix)."""
    _event_counter[0] += 1
    millis = timeshift.now_ms()
    hex_time = f"{millis:012x}"
    return f"{hex_time[:8]}-{hex_time[8:]}-7{_event_counter[0] % 4096:03x}-8000-{_event_counter[0]:012x}"


def record(profile_id="p-1", name="app_opened", params=None, **overrides):
    """A well-formed analytics record as the contract describes it."""
    result = {
        "event_id": event_id(), "install_id": "2b1f9c7e-1111-4222-8333-444455556666", "profile_id": profile_id,
        "session_id": "s-1", "created_at": 1732300000000, "seq": 1, "name": name, "params": {} if params is None else params,
        "app": {"platform": "linux", "app_version": "1.0.0"}, "sdk": {"version": "0.1.0"},
    }
    result.update(overrides)
    return result


def shown(profile_id, variation_id, placement_id="onboarding", ab_test_name="onboarding_annual_first"):
    """A paywall_shown record of one experiment cell."""
    return record(profile_id, "paywall_shown", {
        "placement_id": placement_id, "audience_name": "All Users", "revision": 3, "ab_test_name": ab_test_name,
        "variation_id": variation_id, "paywall_id": "pw", "paywall_name": "Paywall"})


#: A grant's members that read as null when left out (api/openapi.yaml, Grant): every time and id.
GRANT_NULLS = ("expires_at", "transaction_id", "original_transaction_id", "store", "starts_at", "renewed_at",
               "grace_period_expires_at", "billing_issue_detected_at", "unsubscribed_at", "cancellation_reason", "refunded_at",
               "active_introductory_offer_type", "active_promotional_offer_id")


def as_read(grant):
    """A grant as the spec says a reader takes it: members left out read as their defaults
    (null; false for the flags; is_lifetime when expires_at is null). is_active stays absent
    until a store notification reported on the grant."""
    read = {name: None for name in GRANT_NULLS}
    read.update({"is_sandbox": False, "will_renew": False, "is_in_grace_period": False, "is_refund": False})
    read.update(grant)
    read.setdefault("is_lifetime", read["expires_at"] is None)
    return read


def sign(transaction_id, original_transaction_id, vendor_product_id, purchased_at, key=DEV_SIGNING_KEY):
    """The test store's verification string, computed independently of the server."""
    payload = f"{transaction_id}\n{original_transaction_id}\n{vendor_product_id}\n{purchased_at}".encode()
    return "testsig1:" + hmac.new(key.encode(), payload, hashlib.md5).hexdigest()


def transaction(transaction_id, product="premium_monthly", purchased_at=1732300000000, store="test", key=DEV_SIGNING_KEY,
                environment="sandbox"):
    """A store transaction claim, signed by the test store's key."""
    return {"transaction_id": transaction_id, "original_transaction_id": transaction_id, "vendor_product_id": product,
            "verification": sign(transaction_id, transaction_id, product, purchased_at, key), "purchased_at": purchased_at,
            "environment": environment, "store": store}


def purchase(profile_id, transaction_id, product="premium_monthly", amount="9.99", currency="USD", state="purchased",
             attribution=None, **claim):
    """A POST /v1/purchases body; `amount` is written into the JSON as a bare number."""
    body = {"event_id": event_id(), "profile_id": profile_id, **transaction(transaction_id, product, **claim),
            "price": {"amount": "__AMOUNT__", "currency_code": currency}, "state": state, "observer_mode": False}
    if attribution:
        body["attribution"] = attribution
    return json.dumps(body).replace('"__AMOUNT__"', amount).encode()


#: The placement of `bundle_with_a_holdout`: test 'upgrade_holdout', two paywalls and a holdout.
HOLDOUT_PLACEMENT = "upgrade"


def bundle_with_a_holdout(tmp_path):
    """The example bundle and the placement 'upgrade': paywalls 'upgrade-monthly' and
    'upgrade-annual' and the holdout 'upgrade-none' (no paywall), weighted 40/40/20."""
    bundle = json.loads(BACKEND_BUNDLE.read_text())
    bundle["placements"][HOLDOUT_PLACEMENT] = {
        "audience_name": "All Users", "revision": 1, "ab_test_name": "upgrade_holdout",
        "placement_audience_version_id": "upgrade-all-users-v1",
        "variations": [
            {"variation_id": "upgrade-monthly", "paywall_id": "pw-upgrade-a", "paywall_name": "Upgrade: monthly",
             "weight": 40, "products": ["premium_monthly"]},
            {"variation_id": "upgrade-annual", "paywall_id": "pw-upgrade-b", "paywall_name": "Upgrade: annual",
             "weight": 40, "products": ["premium_annual", "premium_monthly"]},
            {"variation_id": "upgrade-none", "weight": 20, "holdout": True},
        ]}
    path = tmp_path / "bundle-with-a-holdout.json"
    path.write_text(json.dumps(bundle))
    return str(path)


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

    def make(storage_dir=None, fallback=True, base_url=None, refresh_on_start=False, **transport):
        # Off unless a test is about it: the tests count the requests the dev server saw.
        config = {
            "profile_id": "integration-profile",
            "transport": {"type": "http", "base_url": base_url or devserver.url, **transport},
            "refresh_profile_on_start": refresh_on_start,
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


def kept_credential(storage_dir, profile_id):
    """The credential of `profile_id` a library client kept in `storage_dir` (what a device
    sends as x-paywire-profile-credential; docs/operations/security.md), or None."""
    kept = pathlib.Path(storage_dir) / "profile-credentials.json"
    return json.loads(kept.read_text()).get(profile_id) if kept.exists() else None


def logs(client, timeout=0.2):
    """The log events waiting on `client`."""
    return [event for event in client.events(timeout) if event["event"] == "log"]


def fallback_log(client):
    """The one log event saying which source served instead of the network."""
    found = [event for event in logs(client) if "source" in event.get("details", {})]
    assert len(found) == 1, found
    return found[0]["details"]
