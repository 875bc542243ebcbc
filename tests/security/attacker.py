"""What a hostile client holds and does, for tests/security: the app key every copy of the app
carries, profiles of its own (each with the credential the server handed it), identity tokens
its own account gets from the app's backend, and a proxy of its own between a device and the
server. Every test of the suite is written with these, as the attacker's steps."""
import base64
import hashlib
import hmac
import http.client
import http.server
import json
import re
import threading
import urllib.parse
import uuid

import timeshift
from server_helpers import event_id

#: The app's key: public, in every copy of the app.
APP_KEY = "pk_security_app_key"
#: The app's backend proves identities with this HS256 secret for this audience; the attacker
#: never holds it, only the tokens the backend gives the attacker's own account.
IDENTITY_SECRET = "the-app-backends-identity-secret-for-the-security-suite"
IDENTITY_AUDIENCE = "paywire:security-suite"
CREDENTIAL_HEADER = "x-paywire-profile-credential"


def unique(prefix):
    """A name no other test of the run uses (the servers live for a whole module)."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def identity_token(customer_user_id):
    """The token the app's backend gives a signed-in user: HS256, `sub` = their customer user
    id, for this server's audience, valid for an hour."""
    now = timeshift.now_s()
    head = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = _b64url(json.dumps({"sub": customer_user_id, "aud": IDENTITY_AUDIENCE, "iat": now - 5, "exp": now + 3600}).encode())
    signature = hmac.new(IDENTITY_SECRET.encode(), f"{head}.{claims}".encode(), hashlib.sha256).digest()
    return f"{head}.{claims}.{_b64url(signature)}"


def segment(profile_id):
    """A profile id as one path segment, percent-encoded as the core sends it."""
    return urllib.parse.quote(profile_id, safe="")


class Account:
    """A profile as whoever holds it uses it: the app key and the profile's credential, which is
    kept from the first answer that hands one out (as the core keeps it). `credentials` lists
    every credential an answer ever handed to this holder, whichever profile it was for."""

    def __init__(self, target, profile_id):
        self.target, self.id = target, profile_id
        self.credential = None
        self.credentials = []

    def call(self, method, path, body=None, credential=None):
        """One request with the app key and this holder's credential (or `credential`)."""
        headers = {"authorization": f"Api-Key {APP_KEY}"}
        sent = credential or self.credential
        if sent:
            headers[CREDENTIAL_HEADER] = sent
        status, answer_headers, answer = self.target.server.call(method, path, body, headers=headers, operator=False)
        issued = answer_headers.get(CREDENTIAL_HEADER)
        if issued:
            self.credentials.append(issued)
            if self.credential is None:
                self.credential = issued
        return status, answer_headers, answer

    def profile(self):
        """GET of its own profile: the profile object, or None when the server refused or never met it."""
        status, _, answer = self.call("GET", f"/v1/profiles/{segment(self.id)}")
        return answer["profile"] if status == 200 else None

    def buy(self, transaction_id, product="premium_monthly"):
        """A genuine store purchase: its claim carries the store's own signature."""
        status, _, answer = self.call("POST", "/v1/purchases", self.target.purchase(self.id, transaction_id, product))
        assert status == 200, answer
        return answer

    def identify(self, customer_user_id, token=None, path_profile_id=None, body_profile_id=None):
        """`identify` as the device sends it, with the app backend's token for `customer_user_id`
        unless another is given; the path and the body name this profile unless told otherwise."""
        body = {"event_id": event_id(), "profile_id": body_profile_id or self.id, "customer_user_id": customer_user_id,
                "identity_token": token or identity_token(customer_user_id)}
        return self.call("POST", f"/v1/profiles/{segment(path_profile_id or self.id)}/identity", body)


class RewritingProxy:
    """A proxy the attacker runs between a device and the server (a user trusts their own):
    every request is forwarded as it came, except what `rewrite(method, path, headers, body)`
    changes; it returns the headers and body to send instead. Answers come back untouched,
    the server's signature headers among them."""

    def __init__(self, upstream_port, rewrite, answered=None):
        """`answered(method, path, status, headers)`, when given, hears each answer before it
        goes back (a test that kills the device at that moment)."""
        class Handler(http.server.BaseHTTPRequestHandler):
            def forward(self):
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {name: value for name, value in self.headers.items() if name.lower() not in ("host", "content-length")}
                headers, body = rewrite(self.command, self.path, headers, body)
                connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=10)
                try:
                    connection.request(self.command, self.path, body=body or None, headers=headers)
                    response = connection.getresponse()
                    status, answer, returned = response.status, response.read(), response.getheaders()
                finally:
                    connection.close()
                if answered:
                    answered(self.command, self.path, status, {name.lower(): value for name, value in returned})
                self.send_response(status)
                for name, value in returned:
                    if name.lower() not in ("content-length", "transfer-encoding", "connection", "date", "server"):
                        self.send_header(name, value)
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_GET = do_POST = do_PUT = forward

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # A device killed while its answer is on the way is no error of the proxy's.
        self.httpd.handle_error = lambda request, address: None
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Visitor:
    """A plain HTTP client on the web paywall, as a script or a crawler is: it fetches pages and
    keeps the visitor's cookie, and it never runs a page's script (no beacon)."""

    COOKIE = re.compile(r"(paywire_visitor=[^;]+)")

    def __init__(self, target, cookie=None):
        self.target, self.cookie = target, cookie

    def request(self, method, path, form=None):
        """(status, headers, text); the visitor's cookie is kept from the first answer setting one."""
        connection = http.client.HTTPConnection("127.0.0.1", self.target.server.port, timeout=10)
        try:
            headers = {"cookie": self.cookie} if self.cookie else {}
            body = None
            if form is not None:
                body = urllib.parse.urlencode(form) if isinstance(form, dict) else form
                headers["content-type"] = "application/x-www-form-urlencoded"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
            answer = {name.lower(): value for name, value in response.getheaders()}
        finally:
            connection.close()
        match = self.COOKIE.match(answer.get("set-cookie", ""))
        if match and self.cookie is None:
            self.cookie = match.group(1)
        return response.status, answer, text

    @property
    def profile_id(self):
        return self.cookie.split("=", 1)[1].rsplit(".", 1)[0] if self.cookie else None
