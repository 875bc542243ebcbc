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
        "unsigned": true,                # send no signature at all
        "certificate": {"root_private_key", "root_id", "key_id", "expires_at_offset_ms"}
                                         # the signing key is a short-lived one a root vouches for
    }}                                   # (x-paywire-signing-key; also in $signed_document)

becomes the `result` of host_respond: {"status", "headers" (with the signature's), "body"}.

Placements and onboardings are signed as documents (components/headers/DocumentSignature): the
placement's answer and its ETag, no nonce and no time:

    {"$signed_document": {
        "request": <the host_request event for GET /v1/placements/{id} or /v1/onboardings/{id}>,
        "private_key": "...", "key_id": "...", "status": 200, "headers": [...], "body": "...",
        "signed_body": "...",            # sign this body and send `body`: a rewritten paywall
        "signed_id": "...",              # sign as another placement's answer
        "unsigned": true                 # send no signature
    }}

and a fallback bundle file as the document kind fallback_bundle, for config `fallback.signature`:

    {"$signed_bundle": {"file": "<the path signed>", "private_key": "...", "key_id": "...", "certificate"?: {...}}}
    -> {"key_id": "...", "signature": "...", "certificate"?: "<x-paywire-signing-key text>"}
Signing needs the `cryptography` package (PyPI), imported only by the cases that sign.
"""
import base64
import urllib.parse
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
    if "certificate" in spec:
        headers.append(certificate(spec["certificate"], _public(spec["private_key"])))
    return result


DOCUMENT_CONTEXT = b"paywire-document-signature-v1\n"


def document_message(kind, document_id, revision, body):
    revision = revision[2:] if revision.startswith("W/") else revision
    return DOCUMENT_CONTEXT + f"{kind}\n{document_id}\n{revision}\n".encode() + body


def _sign(spec, message_bytes):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(spec["private_key"]))
    return base64.b64encode(key.sign(message_bytes)).decode()


def signed_document(spec):
    payload = spec["request"]["payload"]
    headers = [list(pair) for pair in spec.get("headers", [])]
    body = spec.get("body")
    result = {"status": spec.get("status", 200), "headers": headers, "body": body}
    if spec.get("unsigned"):
        return result
    kind, document_id = payload["url"].split("/v1/", 1)[1].split("?", 1)[0].split("/", 1)
    document_id = urllib.parse.unquote(document_id)
    etag = next((value for name, value in headers if name.lower() == "etag"), "")
    signed_body = spec.get("signed_body", body) or ""
    signature = _sign(spec, document_message(kind, spec.get("signed_id", document_id), etag, signed_body.encode()))
    headers += [["x-paywire-document-signature", signature], ["x-paywire-document-key-id", spec["key_id"]]]
    if "certificate" in spec:
        headers.append(certificate(spec["certificate"], _public(spec["private_key"])))
    return result


def signed_bundle(spec):
    root = Path(__file__).resolve().parents[2]
    body = (root / spec["file"]).read_bytes()
    signed = {"key_id": spec["key_id"], "signature": _sign(spec, document_message("fallback_bundle", "", "", body))}
    if "certificate" in spec:
        signed["certificate"] = certificate(spec["certificate"], _public(spec["private_key"]))[1]
    return signed


def certificate(spec, public_key_b64):
    """The x-paywire-signing-key header of a key a root vouches for (SigningKeyCertificate):
    {"root_private_key", "root_id", "key_id", "expires_at_offset_ms" (from now) or "expires_at"}."""
    expires_at = spec.get("expires_at", timeshift.now_ms() + spec.get("expires_at_offset_ms", 3_600_000))
    text = f"paywire-signing-key-v1\n{spec['root_id']}\n{spec['key_id']}\n{public_key_b64}\n{expires_at}".encode()
    signature = _sign({"private_key": spec["root_private_key"]}, text)
    return ["x-paywire-signing-key", f"v1;{spec['root_id']};{spec['key_id']};{public_key_b64};{expires_at};{signature}"]


def _public(private_key_b64):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(private_key_b64))
    return base64.b64encode(key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)).decode()
