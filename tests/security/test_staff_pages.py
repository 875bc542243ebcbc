"""An attack that held: markup in what a device controls never runs in a staff member's browser.
A device chooses its profile id, and its account's customer user id is whatever the app's backend
proves (an email, a user name); both are shown on the dashboard's profile page and in the audit
records of reads of that profile. The attacker names both as markup, then waits for support to
open the profile. The pages are drawn on the server, with no script, and every such text is
escaped."""
import urllib.parse
import uuid

from attacker import Account
from dashboard_helpers import Fields, cookies, raw

SCRIPT = '<script>alert("profile")</script>'
IMAGE = '<img src=x onerror=alert(1)>'


def test_markup_a_device_names_is_shown_as_text_on_the_staff_pages(target):
    tag = uuid.uuid4().hex[:8]
    attacker = Account(target, f"{SCRIPT}-{tag}")
    status, _, answer = attacker.identify(f"{IMAGE}-{tag}")
    assert status == 200, answer
    status, headers, page = target.server.call("GET", "/dashboard/profiles/" + urllib.parse.quote(attacker.id, safe=""))
    assert status == 200, page
    html = page.decode()
    assert SCRIPT not in html and IMAGE not in html, "the device's markup reached the page as markup"
    assert "&lt;script&gt;alert(&quot;profile&quot;)&lt;/script&gt;" in html or "&lt;script&gt;alert(&#34;profile&#34;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    status, _, audit = target.server.call("GET", "/dashboard/audit")
    assert status == 200 and SCRIPT not in audit.decode() and tag in audit.decode()


def test_a_session_cookie_planted_before_signing_in_opens_nothing_after(target):
    """Session fixation: the attacker plants a session cookie of its choosing in the operator's
    browser, hoping the sign-in adopts it. Signing in makes a session of its own."""
    planted = "A" * 43
    status, headers, page = raw(target.server, "GET", "/dashboard/login", cookie=f"paywire_session={planted}")
    assert status == 200
    login = cookies(headers)["paywire_login"][0]
    operator = target.server.operator
    status, headers, _ = raw(target.server, "POST", "/dashboard/login", cookie=f"paywire_login={login}; paywire_session={planted}",
                             form={"csrf": Fields(page).values["csrf"], "key": operator.secret})
    session = cookies(headers).get("paywire_session", (None,))[0]
    assert status == 303 and session and session != planted
    assert raw(target.server, "GET", "/dashboard", cookie=f"paywire_session={planted}")[0] == 303, "the planted cookie opened a page"
    assert raw(target.server, "GET", "/dashboard", cookie=f"paywire_session={session}")[0] == 200
