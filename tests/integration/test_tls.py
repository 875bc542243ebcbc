"""TLS with the built-in client: certificates are verified (a self-signed server is refused
unless its CA is given with transport.ca_file), on a loopback HTTPS server made for the test."""
import http.server
import json
import ssl
import subprocess
import threading

import pytest

from conftest import BACKEND_BUNDLE, BACKEND_CREATED_AT, FALLBACK_CREATED_AT, fallback_log


@pytest.fixture(scope="module")
def https_backend(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tls")
    key, cert = directory / "key.pem", directory / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    bundle = json.loads(BACKEND_BUNDLE.read_text())
    body = json.dumps({"response_created_at": bundle["response_created_at"],
                       "placement": bundle["placements"]["onboarding"]}).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/v1/placements/onboarding" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{server.server_address[1]}", str(cert)
    server.shutdown()


def test_https_backend_trusted_through_ca_file(make_client, https_backend):
    url, cert = https_backend
    client = make_client(base_url=url, ca_file=cert)
    assert client.call("get_paywall", {"placement_id": "onboarding"})["response_created_at"] == BACKEND_CREATED_AT


def test_untrusted_certificate_is_refused_and_the_bundle_serves(make_client, https_backend):
    url, _ = https_backend
    client = make_client(base_url=url)
    assert client.call("get_paywall", {"placement_id": "onboarding"})["response_created_at"] == FALLBACK_CREATED_AT
    details = fallback_log(client)
    assert details["transport_error"] == "tls_failed"
