"""Mistakes a newcomer makes with the server are answered with what to do (issue 60): an unknown
placement on a device route is a JSON 404 naming the id a typo away (the library's own rule) or
the route of the other kind; a port in use stops the start naming the address and --port;
--stripe-api-key without --public-url is refused as --help and docs/operations/server.md say;
and the first curl of server.md's "A first server" works as written."""
import hashlib
import os
import pathlib
import re
import socket
import subprocess

from conftest import BACKEND_BUNDLE, SERVER, DevServer, database_url

ROOT = pathlib.Path(__file__).resolve().parents[2]


def production(tmp_path, *args, **kwargs):
    return DevServer("--database", database_url(tmp_path), *args, executable=SERVER, **kwargs)


def test_an_unknown_placement_is_a_json_404_naming_what_was_meant(devserver):
    status, headers, body = devserver.call("GET", "/v1/placements/onbaording", operator=False)
    assert status == 404 and headers["content-type"].startswith("application/json"), (status, headers)
    assert body["error"]["code"] == "not_found" and body["error"]["placement_id"] == "onbaording"
    assert body["error"]["did_you_mean"] == "onboarding" and "did you mean 'onboarding'?" in body["error"]["message"]
    # An onboarding asked for as a paywall placement, and the other way round: the route to ask.
    status, _, body = devserver.call("GET", "/v1/placements/welcome", operator=False)
    assert status == 404 and "/v1/onboardings/welcome" in body["error"]["message"] and "did_you_mean" not in body["error"]
    status, _, body = devserver.call("GET", "/v1/onboardings/onboarding", operator=False)
    assert status == 404 and "/v1/placements/onboarding" in body["error"]["message"]
    status, _, body = devserver.call("GET", "/v1/onboardings/welcom", operator=False)
    assert status == 404 and body["error"]["did_you_mean"] == "welcome"
    # Nothing near: the id alone, no guess.
    status, _, body = devserver.call("GET", "/v1/placements/checkout-v2", operator=False)
    assert status == 404 and body["error"]["placement_id"] == "checkout-v2" and "did_you_mean" not in body["error"]
    assert devserver.call("GET", "/v1/placements/onboarding", operator=False)[0] == 200


def busy_port():
    """A socket listening on a free port of 127.0.0.1, held by the test."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    return holder


def test_a_port_in_use_stops_the_start_naming_the_address_and_the_flag(tmp_path):
    with busy_port() as holder:
        port = holder.getsockname()[1]
        done = subprocess.run([SERVER, "--bundle", str(BACKEND_BUNDLE), "--database", database_url(tmp_path), "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    last = done.stderr.strip().splitlines()[-1]
    assert f"cannot listen on 127.0.0.1:{port}" in last and "in use" in last and "--port" in last, last
    assert "bind(descriptor" not in done.stderr


def test_stripe_without_a_public_url_is_refused_as_the_help_says(tmp_path):
    done = subprocess.run([SERVER, "--bundle", str(BACKEND_BUNDLE), "--database", database_url(tmp_path), "--port", "0",
                           "--stripe-api-key", "sk_test_x"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--stripe-api-key needs --public-url" in done.stderr, done.stderr[-2000:]
    helped = subprocess.run([SERVER, "--help"], capture_output=True, text=True, timeout=60)
    line = next(line for line in helped.stdout.splitlines() if line.strip().startswith("--public-url"))
    assert "required with --stripe-api-key" in line and "default: the request's Host" not in line, line
    row = next(line for line in (ROOT / "docs/operations/server.md").read_text().splitlines() if line.startswith("| `--stripe-api-key"))
    assert "required with `--stripe-api-key`" in row, row
    # With --dev it may be left out: the request's Host is used.
    server = DevServer("--stripe-api-key", "sk_test_x", "--stripe-api-base", "http://127.0.0.1:9")
    server.stop()


def first_server_curl():
    """The first curl of server.md's "A first server": the device route's request, as written."""
    text = (ROOT / "docs/operations/server.md").read_text()
    section = text.split("## A first server", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"`(curl [^`]*?/v1/placements/[^`]*)`", section, re.S)
    assert found, "no curl of a placement in \"A first server\""
    return " ".join(found.group(1).split())


def test_the_first_curl_of_a_first_server_works_as_written(tmp_path):
    api_key = "first-server-app-key"
    server = production(tmp_path, "--app-key-sha256", hashlib.sha256(api_key.encode()).hexdigest())
    try:
        command = first_server_curl().replace("127.0.0.1:8080", f"127.0.0.1:{server.port}")
        assert command.startswith("curl ") and "127.0.0.1:8080" not in command
        # Run by a shell, as the reader runs it, with the variable the page's block sets.
        done = subprocess.run(["bash", "-c", command + " --silent --show-error --write-out '\n%{http_code}'"],
                              capture_output=True, text=True, timeout=30, env={**os.environ, "API_KEY": api_key})
        assert done.returncode == 0, done.stderr
        body, status = done.stdout.rsplit("\n", 1)
        assert status == "200", (command, status, body)
    finally:
        server.stop()
