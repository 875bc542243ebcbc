"""What the device accepts, the backend keeps (one contract on both sides, PaywireModel's records).

Two properties, on whichever engine the suite runs on (SQLite in `make integration`, PostgreSQL in
`make contract-postgres`, both in `make test`):

1. Every request the core makes to the backend while it plays every conformance vector (the C
   harness, the driver's `--capture`) is sent as made to the real server: none is refused as
   malformed (400, 413) and none fails it (5xx). Answers a store would give (a purchase the test
   store's key did not sign: 422; a redemption token never issued: 200 `invalid`) are the server
   judging a kept record, not refusing one.
2. Every paywall of every bundle the vectors use, as `get_paywall` gives it and with each member
   a host might leave out removed in turn, is shown with `log_show_paywall` against the real
   server: the call refuses it naming the member (`wrong_param`, `details.field`), or the
   exposure it answered with is stored by the server.
"""
import copy
import json
import os
import subprocess
import sys

import pytest

import paywire
from conftest import ROOT, DevServer

HARNESS = ROOT / "build/bin/paywire-harness"
BUNDLES = ROOT / "tests/conformance/bundles"
#: A host may hand back a paywall without any of these (a vendor file's, a copy it trimmed).
OPTIONAL_MEMBERS = [("placement", "revision"), ("placement", "audience_name"), ("placement", "ab_test_name"),
                    ("placement", "placement_audience_version_id"), (None, "paywall_id"), (None, "paywall_name")]


@pytest.fixture(scope="module")
def captured(tmp_path_factory):
    """Every backend request of every vector, as the core made it."""
    if not HARNESS.exists():
        pytest.fail(f"{HARNESS} is not built (make harness)")
    path = tmp_path_factory.mktemp("capture") / "requests.jsonl"
    run = subprocess.run([sys.executable, str(ROOT / "tests/conformance/driver.py"), "--runner", "c", "--jobs", "2",
                          "--capture", str(path), "--", str(HARNESS)], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    requests = [json.loads(line) for line in path.read_text().splitlines()]
    assert len([r for r in requests if r["method"] != "GET"]) >= 80, "the vectors exchanged fewer records than they do"
    return requests


@pytest.fixture(scope="module")
def server():
    running = DevServer()
    yield running
    running.stop()


def test_every_record_the_core_sent_for_every_vector_is_kept_by_the_server(captured, server):
    sent = [request for request in captured if request["method"] != "GET"]
    refused, statuses = [], {}
    for request in sent:
        body = (request["body"] or "").encode()
        status, _, answer = server.call(request["method"], request["path"], body)
        statuses[status] = statuses.get(status, 0) + 1
        if status in (400, 413) or status >= 500:
            refused.append(f"{request['case']}: {request['method']} {request['path']} -> {status} {answer}")
    print(f"\nrecords: {len(sent)} sent, statuses {sorted(statuses.items())}")
    assert refused == []
    kinds = {request["path"].split("/")[2] for request in sent}
    assert {"events", "purchases", "restores", "profiles", "attribution", "offers", "redemptions"} <= kinds


def paywalls():
    """(bundle, placement id) of every paywall placement of every bundle the vectors use that
    the core serves."""
    found = []
    for path in sorted(BUNDLES.glob("*.json")):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue  # the bundles that exist to be refused
        placements = document.get("placements") if "format_version" in document else document.get("data")
        if isinstance(placements, dict):
            found += [(path.name, placement_id) for placement_id in placements]
        elif isinstance(placements, list):
            found += [(path.name, entry.get("placement_id") or entry.get("developer_id")) for entry in placements if isinstance(entry, dict)]
    return [(bundle, placement) for bundle, placement in found if placement]


def variants(paywall):
    """The paywall as given, then without each member a host might leave out."""
    yield "as given", paywall
    for parent, member in OPTIONAL_MEMBERS:
        holder = paywall.get(parent) if parent else paywall
        if isinstance(holder, dict) and member in holder:
            trimmed = copy.deepcopy(paywall)
            del (trimmed[parent] if parent else trimmed)[member]
            yield f"without {parent + '.' if parent else ''}{member}", trimmed


def test_every_paywall_shape_is_refused_naming_the_member_or_kept(server):
    shown, refused_by_call, served = {}, [], 0
    for bundle, placement_id in paywalls():
        config = {"profile_id": f"shapes-{bundle}-{placement_id}", "fallback": {"path": str(BUNDLES / bundle)},
                  "transport": {"type": "http", "base_url": server.url}, "load_timeout_ms": 1000}
        try:
            client = paywire.Client(config)
        except paywire.PaywireError:
            continue  # a bundle the core refuses as a whole serves nothing to show
        with client:
            try:
                paywall = client.call("get_paywall", {"placement_id": placement_id, "fetch_policy": "return_cache_data_else_load",
                                                      "load_timeout": 0.5})
            except paywire.PaywireError:
                continue  # a placement the bundle cannot serve (no audience, a bad weight) shows nothing
            served += 1
            for what, variant in variants(paywall):
                try:
                    answer = client.call("log_show_paywall", {"paywall": variant})
                except paywire.PaywireError as error:
                    assert error.code == "wrong_param" and error.details.get("field", "").startswith("paywall"), (bundle, placement_id, what, error)
                    refused_by_call.append((bundle, placement_id, what))
                    continue
                shown[answer["event_id"]] = (bundle, placement_id, what)
            client.call("flush_analytics", {"timeout_ms": 20000})
    print(f"\nshapes: {served} paywalls served, {len(shown)} exposures shown, {len(refused_by_call)} refused by the call")
    assert served >= 20, "fewer paywalls were served than the bundles hold"
    stored = {event["event_id"] for event in server.control("GET", "events?name=paywall_shown")["events"]}
    lost = [shape for event_id, shape in shown.items() if event_id not in stored]
    assert lost == [], "exposures the call accepted and the server did not keep"
    assert any(what == "without placement.revision" for _, _, what in shown.values())
