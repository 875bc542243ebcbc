"""What the web tests ask over HTTP and how they check a webhook: a plain request that follows no
redirect, and Stripe's signature verified as Stripe's libraries verify it, computed here apart
from the stand-in's own code so that a wrong signature cannot pass."""
import hashlib
import hmac
import http.client
import json
import time
import urllib.parse

import timeshift


def call(base_url, method, path, form=None, key=None, content_type="application/x-www-form-urlencoded", body=None):
    """(status, headers, body as JSON when it is JSON): no redirect is followed."""
    parsed = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
    headers = {}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    if form is not None:
        body = urllib.parse.urlencode(form)
    if body is not None:
        headers["Content-Type"] = content_type
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        answer_headers = {name.lower(): value for name, value in response.getheaders()}
        if answer_headers.get("content-type", "").startswith("application/json"):
            data = json.loads(data)
        return response.status, answer_headers, data
    finally:
        connection.close()


def verified(request, secret, tolerance_s=300):
    """The event of a webhook delivery whose Stripe-Signature verifies, as Stripe's libraries check it."""
    parts = dict(part.split("=", 1) for part in request.headers["Stripe-Signature"].split(","))
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + request.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(parts["v1"], expected), "the signature does not verify with the endpoint's secret"
    assert abs(timeshift.now_s() - int(parts["t"])) <= tolerance_s
    return json.loads(request.body)
