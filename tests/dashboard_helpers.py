"""The dashboard as a browser meets it, for the tests of its pages and doors (tests/integration,
tests/security): requests with cookies and forms, the sign-in form's way in, and the hidden
fields and audit rows a page holds."""
import html.parser
import http.client
import urllib.parse

from operator_key import OperatorKey


class Fields(html.parser.HTMLParser):
    """The hidden inputs of a page's forms, by name."""

    def __init__(self, page):
        super().__init__()
        self.values = {}
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and attrs.get("type") == "hidden":
            self.values[attrs["name"]] = attrs["value"]


def cookies(headers_list):
    """name -> (value, attributes) of every Set-Cookie."""
    found = {}
    for name, value in headers_list:
        if name.lower() == "set-cookie":
            first, *attributes = [part.strip() for part in value.split(";")]
            cookie, _, cookie_value = first.partition("=")
            found[cookie] = (cookie_value, attributes)
    return found


def raw(server, method, path, body=None, cookie=None, form=None):
    """(status, [(header, value)], text): the headers as a list, since Set-Cookie repeats."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {}
    if cookie:
        headers["cookie"] = cookie
    if form is not None:
        body = urllib.parse.urlencode(form)
        headers["content-type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, [(name.lower(), value) for name, value in response.getheaders()], response.read().decode()
    finally:
        connection.close()


def sign_in(server, key, next_path=None):
    """The form's way in: (status, headers, session cookie value or None)."""
    status, headers, page = raw(server, "GET", "/dashboard/login")
    assert status == 200
    login = cookies(headers)["paywire_login"][0]
    form = {"csrf": Fields(page).values["csrf"], "key": key.secret if isinstance(key, OperatorKey) else key}
    if next_path:
        form["next"] = next_path
    status, headers, _ = raw(server, "POST", "/dashboard/login", cookie=f"paywire_login={login}", form=form)
    session = cookies(headers).get("paywire_session", (None,))[0]
    return status, dict((k.lower(), v) for k, v in headers if k.lower() != "set-cookie"), session, headers


class AuditRows(html.parser.HTMLParser):
    """The audit page's rows: data-field -> text."""

    def __init__(self, page):
        super().__init__()
        self.rows, self._field = [], None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and attrs.get("class") == "audit":
            self.rows.append({})
        self._field = attrs.get("data-field") if self.rows else None

    def handle_data(self, data):
        if self._field and self.rows:
            self.rows[-1][self._field] = self.rows[-1].get(self._field, "") + data

    def handle_endtag(self, tag):
        self._field = None
