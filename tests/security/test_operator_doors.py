"""The operators' doors against a hostile client: an oversized form is refused 413 (not a 500 and
an error in the log), an audit record names the customer whatever encoding the path used, the
SQLite store is no one else's to read, guessing operator keys is limited on every door, and a
key given a new secret ends the sessions of the old one."""
import os
import stat
import urllib.parse

import pytest

from dashboard_helpers import AuditRows, raw, sign_in
from operator_key import OperatorKey
from server_helpers import ON_POSTGRES, SERVER, DevServer, database_url


@pytest.mark.parametrize("path, past_the_door", [("/dashboard/login", False), ("/dashboard/logout", True)])
def test_a_form_larger_than_its_route_takes_is_refused_413(target, path, past_the_door):
    """The sign-in form needs no key; sign-out's form is read once its door opened."""
    form = urllib.parse.urlencode({"csrf": "x", "key": "k" * 5000}).encode()
    status, _, body = target.server.call("POST", path, form, headers={"content-type": "application/x-www-form-urlencoded"},
                                         operator=past_the_door)
    assert status == 413 and body["error"]["code"] == "payload_too_large", body
    assert target.server.call("GET", "/healthz", operator=False)[0] == 200


def test_an_audit_record_names_the_customer_however_the_path_encoded_the_id():
    support = OperatorKey("support-enc", ["customers:read"])
    auditor = OperatorKey("auditor-enc", ["audit:read"])
    server = DevServer(*support.server_args(), *auditor.server_args(), operator=False)
    try:
        assert server.call("GET", "/dashboard/profiles/%76ictim-%C3%A9", headers=support.headers())[0] == 404
        rows = AuditRows(server.call("GET", "/dashboard/audit", headers=auditor.headers())[2].decode()).rows
        assert [(row["action"], row.get("subject")) for row in rows] == [
            ("GET /dashboard/profiles/{profile_id}", "profile_id=victim-\u00e9")]
    finally:
        server.stop()


@pytest.mark.skipif(ON_POSTGRES, reason="the SQLite file's mode; PostgreSQL keeps its own files")
def test_the_sqlite_store_and_its_journal_are_readable_by_the_server_alone(tmp_path):
    os.umask(0o022)
    server = DevServer("--database", database_url(tmp_path), executable=SERVER)
    try:
        assert server.post_events([])[0] in (200, 400)  # a write, so the WAL and its index exist
        files = [tmp_path / name for name in ("server.sqlite", "server.sqlite-wal", "server.sqlite-shm")]
        assert {path.name: oct(stat.S_IMODE(path.stat().st_mode)) for path in files if path.exists()} == {
            path.name: "0o600" for path in files}
    finally:
        server.stop()


def test_guessing_operator_keys_is_limited_on_every_door_and_the_sign_in_form_shares_the_count():
    analyst = OperatorKey("analyst-guess", ["results:read", "dashboard"])
    server = DevServer(*analyst.server_args(), operator=False)
    try:
        results = "/v1/experiments/onboarding/results"
        for attempt in range(10):
            status, _, body = server.call("GET", results, headers={"authorization": f"Bearer guess-{attempt}"})
            assert status == 401, (attempt, body)
        status, headers, body = server.call("GET", results, headers=analyst.headers())
        assert status == 429 and body["error"]["code"] == "rate_limited" and int(headers["retry-after"]) > 0, \
            "past ten wrong keys the address waits, even with a right one: a guess cannot tell"
        status, headers, _ = server.call("GET", "/dashboard", headers=analyst.headers())
        assert status == 429, "the count is the address's on every door"
        form = urllib.parse.urlencode({"csrf": "x", "key": analyst.secret}).encode()
        status, _, _ = server.call("POST", "/dashboard/login", form, operator=False,
                                   headers={"content-type": "application/x-www-form-urlencoded"})
        assert status == 429, "and the sign-in form's"
        assert server.call("GET", "/healthz", operator=False)[0] == 200
    finally:
        server.stop()


def test_a_key_given_a_new_secret_under_its_id_ends_the_sessions_signed_in_with_the_old(tmp_path):
    database = database_url(tmp_path)
    old, new = OperatorKey("ops", ["dashboard"]), OperatorKey("ops", ["dashboard", "customers:read"])
    server = DevServer("--database", database, *old.server_args(), executable=SERVER, operator=False)
    try:
        status, _, session, _ = sign_in(server, old)
        assert status == 303 and session
        assert raw(server, "GET", "/dashboard", cookie=f"paywire_session={session}")[0] == 200
    finally:
        server.stop()
    rotated = DevServer("--database", database, *new.server_args(), executable=SERVER, operator=False)
    try:
        status, headers, _ = raw(rotated, "GET", "/dashboard/profiles/p-1", cookie=f"paywire_session={session}")
        assert status == 303 and dict(headers)["location"].startswith("/dashboard/login"), \
            "the session of the old secret is over: it neither stays open nor gains the new key's scopes"
        status, _, session, _ = sign_in(rotated, new)
        assert raw(rotated, "GET", "/dashboard/profiles/p-1", cookie=f"paywire_session={session}")[0] == 404
    finally:
        rotated.stop()
