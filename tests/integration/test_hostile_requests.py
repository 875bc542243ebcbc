"""Requests a hostile client sends without any key, and what an operator's record must show of
them: an oversized form is refused 413 (not a 500 and an error in the log), an audit record
names the customer whatever encoding the path used, and the SQLite store is no one else's to read."""
import os
import stat
import urllib.parse

from conftest import SERVER, DevServer, database_url, ON_POSTGRES
from operator_key import OperatorKey
from test_audit import Rows

import pytest


@pytest.mark.parametrize("path, past_the_door", [("/dashboard/login", False), ("/dashboard/logout", True)])
def test_a_form_larger_than_its_route_takes_is_refused_413(devserver, path, past_the_door):
    """The sign-in form needs no key; sign-out's form is read once its door opened."""
    form = urllib.parse.urlencode({"csrf": "x", "key": "k" * 5000}).encode()
    status, _, body = devserver.call("POST", path, form, headers={"content-type": "application/x-www-form-urlencoded"},
                                     operator=past_the_door)
    assert status == 413 and body["error"]["code"] == "payload_too_large", body
    assert devserver.call("GET", "/healthz", operator=False)[0] == 200


def test_an_audit_record_names_the_customer_however_the_path_encoded_the_id():
    support = OperatorKey("support-enc", ["customers:read"])
    auditor = OperatorKey("auditor-enc", ["audit:read"])
    server = DevServer(*support.server_args(), *auditor.server_args(), operator=False)
    try:
        assert server.call("GET", "/dashboard/profiles/%76ictim-%C3%A9", headers=support.headers())[0] == 404
        rows = Rows(server.call("GET", "/dashboard/audit", headers=auditor.headers())[2].decode()).rows
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
