"""The outbox's SQLite schema grows by versions (`PRAGMA user_version`): a queue an older
version left is opened, migrated, and its records still go where they were meant to."""
import json
import sqlite3

from helpers import config, paywire

TRANSPORT = {"type": "host", "base_url": "https://api.test/"}


def old_queue(storage_dir, profile_id):
    """The queue as versions before the route column wrote it, holding one attributes record."""
    storage_dir.mkdir(parents=True, exist_ok=True)
    database = sqlite3.connect(storage_dir / "outbox.sqlite")
    database.executescript("""
        PRAGMA journal_mode=WAL;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE records (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE,
            kind INTEGER NOT NULL, size INTEGER NOT NULL, body BLOB NOT NULL);
        CREATE INDEX records_by_kind ON records (kind, seq);
        """)
    body = json.dumps({"event_id": "0190c4e5-0000-7000-8000-000000000001", "profile_id": profile_id,
                       "attributes": {"first_name": "Ada"}}).encode()
    database.execute("INSERT INTO meta VALUES ('install_id', 'old-install')")
    database.execute("INSERT INTO records VALUES (?, ?, 3, ?, ?)",
                     (1 << 52, "0190c4e5-0000-7000-8000-000000000001", len(body), body))
    database.commit()
    database.close()


def first_http_request(client):
    for event in client.events(2.0):
        if event["event"] == "host_request" and event["kind"] == "http":
            return event
    raise AssertionError("no http host_request")


def test_a_queue_an_older_version_left_is_migrated_and_its_record_keeps_its_route(tmp_path):
    storage = tmp_path / "store"
    old_queue(storage, "old profile")
    with paywire.Client(config(storage, transport=TRANSPORT, refresh_profile_on_start=False)) as client:
        request = first_http_request(client)
        assert request["payload"]["method"] == "PUT"
        assert request["payload"]["url"] == "https://api.test/v1/profiles/old%20profile/attributes"
    database = sqlite3.connect(storage / "outbox.sqlite")
    assert database.execute("PRAGMA user_version").fetchone() == (1,)
    assert "route" in {row[1] for row in database.execute("PRAGMA table_info(records)")}


def test_a_new_record_is_kept_with_its_route(tmp_path):
    storage = tmp_path / "store"
    with paywire.Client(config(storage, transport=TRANSPORT, refresh_profile_on_start=False)) as client:
        client.call("update_profile", {"first_name": "Ada"})
    database = sqlite3.connect(storage / "outbox.sqlite")
    routes = [row[0] for row in database.execute("SELECT route FROM records WHERE kind >= 2")]
    assert routes == ["profiles/storage-profile/attributes"]
