"""The Google Play route outside development: a push's own fields are never taken for a
purchase's state, and the key set of push tokens follows Google's key rotation."""
import json
import os
import time

import pytest

from conftest import SERVER, DevServer, database_url
from test_notifications_play import AUDIENCE, PUSH_ACCOUNT, developer_notification, envelope, jwk, oidc_token, push, rsa_key
import timeshift


def test_without_a_service_account_a_push_naming_a_purchase_is_answered_503_and_changes_nothing(tmp_path):
    server = DevServer("--database", database_url(tmp_path), executable=SERVER)
    try:
        for body in (push("token-1", 4, expiryTimeMillis=str(timeshift.now_ms() + 86_400_000)),
                     envelope(developer_notification(oneTimeProductNotification={"version": "1.0", "notificationType": 1,
                                                                                 "purchaseToken": "token-2", "sku": "lifetime"}))):
            status, _, answer = server.call("POST", "/v1/notifications/play", body)
            assert (status, answer["error"]["code"]) == (503, "play_api_not_configured"), answer
            assert "--play-service-account" in answer["error"]["message"]
        for members in ({"testNotification": {"version": "1.0"}}, {"somethingNew": {"version": "1.0"}}):
            status, _, answer = server.call("POST", "/v1/notifications/play", envelope(developer_notification(**members)))
            assert status == 200 and answer["outcome"] == "recorded", "naming no purchase, it is still acknowledged"
        _, _, metrics = server.call("GET", "/metrics")
        assert 'paywire_notifications_total{source="play_store",outcome="play_api_not_configured"} 2' in metrics.decode()
    finally:
        server.stop()


def write_key_set(path, keys, modified):
    """Writes by a rename, as a timer fetching Google's certs should, with a given mtime."""
    staged = path.with_suffix(".new")
    staged.write_text(json.dumps({"keys": [jwk(key, kid) for kid, key in keys.items()]}))
    os.utime(staged, (modified, modified))
    os.replace(staged, path)


def pushed(server, key, kid):
    body = envelope(developer_notification(testNotification={"version": "1.0"}))
    status, _, _ = server.call("POST", "/v1/notifications/play", body, headers={"authorization": "Bearer " + oidc_token(key, kid=kid)})
    return status


@pytest.fixture()
def rotating(tmp_path):
    keys = {"old": rsa_key(), "new": rsa_key()}
    path = tmp_path / "google-certs.json"
    write_key_set(path, {"old": keys["old"]}, time.time() - 600)
    server = DevServer("--play-push-jwks", str(path), "--play-push-audience", AUDIENCE, "--play-push-service-account", PUSH_ACCOUNT)
    yield server, path, keys
    server.stop()


def test_a_key_google_rotated_in_is_taken_once_the_file_holds_it_without_a_restart(rotating):
    server, path, keys = rotating
    assert pushed(server, keys["old"], "old") == 200
    assert pushed(server, keys["new"], "new") == 401, "a key the file does not hold"
    write_key_set(path, keys, time.time())
    time.sleep(1.1)  # the file is looked at again at most once a second
    assert pushed(server, keys["new"], "new") == 200
    assert pushed(server, keys["old"], "old") == 200


def test_a_changed_file_that_is_not_a_key_set_keeps_the_keys_read_before(rotating):
    server, path, keys = rotating
    path.write_text('{"keys": [')
    os.utime(path, (time.time(), time.time()))
    time.sleep(1.1)
    assert pushed(server, keys["new"], "new") == 401
    assert pushed(server, keys["old"], "old") == 200, "a half-written file never opens or closes the route"
    write_key_set(path, keys, time.time() + 5)
    time.sleep(1.1)
    assert pushed(server, keys["new"], "new") == 200, "once whole again, it is taken"
