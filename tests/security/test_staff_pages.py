"""An attack that held: markup in what a device controls never runs in a staff member's browser.
A device chooses its profile id, and its account's customer user id is whatever the app's backend
proves (an email, a user name); both are shown on the dashboard's profile page and in the audit
records of reads of that profile. The attacker names both as markup, then waits for support to
open the profile. The pages are drawn on the server, with no script, and every such text is
escaped."""
import urllib.parse
import uuid

from attacker import Account

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
