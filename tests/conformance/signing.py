"""Signed backend answers for the vectors (config response_verification): the driver signs an
answer as a Paywire server signs it (api/openapi.yaml, components/headers/Signature), with a key
pair the vector carries, over the nonce of the request the core actually made, so every runner
plays the same case whatever random nonce its core drew.

    {"$signed_answer": {
        "request": <the host_request event the answer is for (a saved events step)>,
        "private_key": "<Ed25519 seed, base64>", "key_id": "...",
        "status": 200, "headers": [["ETag", "\\"p1\\""]], "body": "...",
        "signed_at_offset_ms": 0,        # the time signed, from now (or "signed_at": ms)
        "signed_body": "...",            # sign this body and send `body`: an answer changed on the way
        "nonce": "...",                  # sign over another nonce: an answer recorded for another request
        "unsigned": true                 # send no signature at all
    }}

becomes the `result` of host_respond: {"status", "headers" (with the signature's), "body"}.
Signing needs the `cryptography` package (PyPI), imported only by the cases that sign.
"""
import base64
import sys
from pathlib import Path

# The run's date (tests/timeshift.py): a signature dated by the library's clock.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import timeshift  # noqa: E402

CONTEXT = b"paywire-response-signature-v1\n"


def message(nonce, signed_at, status, method, path, etag, body):
    etag = etag[2:] if etag.startswith("W/") else etag
    head = f"{nonce}\n{signed_at}\n{status} {method} {path}\n{etag}\n".encode()
    return CONTEXT + head + body


def signed_answer(spec):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    payload = spec["request"]["payload"]
    sent = {name.lower(): value for name, value in payload.get("headers", [])}
    headers = [list(pair) for pair in spec.get("headers", [])]
    body = spec.get("body")
    result = {"status": spec.get("status", 200), "headers": headers, "body": body}
    if spec.get("unsigned"):
        return result
    path = "/v1/" + payload["url"].split("/v1/", 1)[1].split("?", 1)[0]
    etag = next((value for name, value in headers if name.lower() == "etag"), "")
    signed_at = spec.get("signed_at", timeshift.now_ms() + spec.get("signed_at_offset_ms", 0))
    signed_body = spec.get("signed_body", body) or ""
    nonce = spec.get("nonce", sent.get("x-paywire-nonce", ""))
    key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(spec["private_key"]))
    signature = key.sign(message(nonce, signed_at, result["status"], payload["method"], path, etag, signed_body.encode()))
    headers += [["x-paywire-signature", base64.b64encode(signature).decode()], ["x-paywire-signature-key-id", spec["key_id"]],
                ["x-paywire-signed-at", str(signed_at)]]
    return result
