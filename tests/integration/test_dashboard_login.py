"""Operators sign in to the dashboard in a browser (docs/operations/security.md): the sign-in
form takes an operator key with the `dashboard` scope, the session is a cookie (HttpOnly,
SameSite=Strict, Secure behind https) kept in the database so every replica knows it, every
form carries a CSRF token, the sign-in is rate-limited, and signing out ends the session. The
last test drives Debian's Chromium through chromium-driver with selenium, as a person would."""
import re
import shutil
import time

import pytest

from conftest import SERVER, DevServer, database_url, shown
from dashboard_helpers import Fields, cookies, raw, sign_in
from operator_key import OperatorKey

ANA = OperatorKey("ana", ["dashboard", "results:read", "customers:read"])
VIEWER = OperatorKey("viewer", ["dashboard"])
TOOL = OperatorKey("tool", ["results:read"])
APP_KEY = "the-apps-public-key"


def keyed(*extra, keys=(ANA, VIEWER, TOOL), executable=None):
    args = [arg for key in keys for arg in key.server_args()]
    return DevServer("--app-key", APP_KEY, *args, *extra, operator=False, executable=executable)


@pytest.fixture(scope="module")
def server():
    running = keyed()
    yield running
    running.stop()


def test_a_browser_without_a_session_is_sent_to_the_sign_in_page(server):
    for path, location in [("/dashboard", "/dashboard/login"),
                           ("/dashboard/profiles/p-1", "/dashboard/login?next=/dashboard/profiles/p-1")]:
        status, headers, _ = raw(server, "GET", path)
        assert status == 303 and dict(headers)["location"] == location
    status, headers, page = raw(server, "GET", "/dashboard/login")
    attributes = cookies(headers)["paywire_login"][1]
    assert status == 200 and "HttpOnly" in attributes and "SameSite=Strict" in attributes and "Secure" not in attributes
    assert cookies(headers)["paywire_login"][0] == Fields(page).values["csrf"]
    assert '<label for="key">' in page and 'type="password"' in page


def test_signing_in_starts_a_session_that_opens_the_pages_its_keys_scopes_open(server):
    status, headers, session, all_headers = sign_in(server, ANA, next_path="/dashboard/profiles/p-1")
    assert status == 303 and headers["location"] == "/dashboard/profiles/p-1"
    value, attributes = cookies(all_headers)["paywire_session"]
    assert {"HttpOnly", "SameSite=Strict", "Path=/dashboard", "Max-Age=28800"} <= set(attributes)
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", value)
    status, _, page = raw(server, "GET", "/dashboard", cookie=f"paywire_session={session}")
    assert status == 200 and 'data-field="operator">ana<' in page
    assert raw(server, "GET", "/dashboard/profiles/p-1", cookie=f"paywire_session={session}")[0] == 404   # opened: no such profile
    _, _, viewer, _ = sign_in(server, VIEWER)
    status, _, body = raw(server, "GET", "/dashboard/profiles/p-1", cookie=f"paywire_session={viewer}")
    assert status == 403 and "insufficient_scope" in body and "viewer" in body


def test_the_sign_in_refuses_the_apps_key_a_key_without_the_scope_and_a_form_from_elsewhere(server):
    for key, status_code, says in [(APP_KEY, 401, "not an operator key"), (TOOL, 403, "does not hold the scope"),
                                   ("", 401, "not an operator key")]:
        status, _, session, _ = sign_in(server, key)
        assert status == status_code and session is None, key
    # No form token, or one that is not the cookie's: no session, whatever the key.
    for cookie, form in [(None, {"key": ANA.secret}), ("paywire_login=x", {"key": ANA.secret, "csrf": "y"})]:
        status, headers, page = raw(server, "POST", "/dashboard/login", cookie=cookie, form=form)
        assert status == 403 and "paywire_session" not in cookies(headers) and "expired" in page
    assert ANA.secret not in raw(server, "POST", "/dashboard/login", form={"key": ANA.secret})[2]


def test_signing_in_never_sends_the_browser_to_another_site(server):
    for elsewhere in ["https://evil.example/", "//evil.example/dashboard", "/dashboard/login", "/dashboard\\..\\x", "javascript:x"]:
        status, headers, _, _ = sign_in(server, VIEWER, next_path=elsewhere)
        assert status == 303 and headers["location"] == "/dashboard", elsewhere


def test_signing_out_needs_the_sessions_csrf_token_and_ends_the_session(server):
    _, _, session, _ = sign_in(server, VIEWER)
    cookie = f"paywire_session={session}"
    csrf = Fields(raw(server, "GET", "/dashboard", cookie=cookie)[2]).values["csrf"]
    assert raw(server, "POST", "/dashboard/logout", cookie=cookie, form={})[0] == 403
    assert raw(server, "POST", "/dashboard/logout", cookie=cookie, form={"csrf": csrf + "x"})[0] == 403
    assert raw(server, "GET", "/dashboard", cookie=cookie)[0] == 200
    status, headers, _ = raw(server, "POST", "/dashboard/logout", cookie=cookie, form={"csrf": csrf})
    assert status == 303 and dict(headers)["location"] == "/dashboard/login"
    assert "Max-Age=0" in cookies(headers)["paywire_session"][1]
    assert raw(server, "GET", "/dashboard", cookie=cookie)[0] == 303


def test_failed_sign_ins_are_rate_limited_per_address_with_retry_after():
    server = keyed()
    try:
        assert sign_in(server, VIEWER)[0] == 303, "a success costs nothing"
        statuses = [sign_in(server, "wrong-" + str(i))[0] for i in range(10)]
        assert statuses == [401] * 10
        status, headers, session, _ = sign_in(server, ANA)
        assert status == 429 and session is None
        assert 1 <= int(headers["retry-after"]) <= 900
    finally:
        server.stop()


def test_sessions_live_in_the_database_every_replica_shares_and_end_with_their_key(tmp_path):
    url = database_url(tmp_path)
    first = keyed("--database", url, "--port", "0", executable=SERVER)
    second = keyed("--database", url, "--port", "0", executable=SERVER)
    without_ana = keyed("--database", url, "--port", "0", keys=(VIEWER,), executable=SERVER)
    try:
        _, _, session, _ = sign_in(first, ANA)
        cookie = f"paywire_session={session}"
        assert raw(second, "GET", "/dashboard", cookie=cookie)[0] == 200
        assert raw(without_ana, "GET", "/dashboard", cookie=cookie)[0] == 303, "a key rotated out ends its sessions"
        csrf = Fields(raw(second, "GET", "/dashboard", cookie=cookie)[2]).values["csrf"]
        assert raw(second, "POST", "/dashboard/logout", cookie=cookie, form={"csrf": csrf})[0] == 303
        assert raw(first, "GET", "/dashboard", cookie=cookie)[0] == 303, "signed out on one replica, out on all"
    finally:
        for server in (first, second, without_ana):
            server.stop()


def test_a_session_ends_at_its_time_and_says_secure_behind_https():
    server = keyed("--operator-session-ttl-seconds", "1", "--behind-https")
    try:
        _, _, session, all_headers = sign_in(server, VIEWER)
        assert "Secure" in cookies(all_headers)["paywire_session"][1]
        assert raw(server, "GET", "/dashboard", cookie=f"paywire_session={session}")[0] == 200
        time.sleep(1.5)
        assert raw(server, "GET", "/dashboard", cookie=f"paywire_session={session}")[0] == 303
    finally:
        server.stop()


CHROMEDRIVER = shutil.which("chromedriver")


def test_an_operator_signs_in_reads_the_results_and_signs_out_in_chromium(server):
    assert CHROMEDRIVER, "no chromedriver on PATH: `make deps` installs Debian's chromium-driver"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    app = {"authorization": f"Api-Key {APP_KEY}"}
    assert server.call("POST", "/v1/events", {"records": [shown(f"web-{i}", "onboarding-monthly-first") for i in range(3)]},
                       headers=app)[0] == 200
    options = webdriver.ChromeOptions()
    for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        browser.set_page_load_timeout(60)
        browser.get(server.url + "/dashboard")
        assert browser.current_url.endswith("/dashboard/login"), "no session: the sign-in page"
        browser.find_element(By.ID, "key").send_keys(ANA.secret)
        # A click that submits a form may return before the next page has loaded: wait for it.
        arrives = lambda url: WebDriverWait(browser, 30).until(expected_conditions.url_to_be(url))  # noqa: E731
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        arrives(server.url + "/dashboard")
        exposed = browser.find_element(By.CSS_SELECTOR, '[data-variation="onboarding-monthly-first"] [data-field="exposed"]')
        assert int(exposed.text) >= 3
        assert browser.find_element(By.CSS_SELECTOR, '[data-field="operator"]').text == "ana"
        session = browser.get_cookie("paywire_session")
        assert session["httpOnly"] and session["sameSite"] == "Strict"
        browser.find_element(By.ID, "sign-out").click()
        arrives(server.url + "/dashboard/login")
        browser.get(server.url + "/dashboard")
        assert browser.current_url.endswith("/dashboard/login"), "signed out: the page is closed"
        assert raw(server, "GET", "/dashboard", cookie=f"paywire_session={session['value']}")[0] == 303
    finally:
        browser.quit()
