"""paywire-devserver's own contract: start-up flags, refusing a bad bundle, control endpoints."""
import json
import subprocess
import urllib.error
import urllib.request

import pytest

import paywire
from conftest import DEVSERVER, DevServer


def test_start_flags_set_faults_and_serve_profiles(tmp_path):
    profiles = tmp_path / "profiles.json"
    profiles.write_text(json.dumps({"p-1": {"access_levels": {"premium": {
        "vendor_product_id": "premium_annual", "activated_at": "2026-01-01T00:00:00Z", "expires_at": None}}}}))
    server = DevServer("--profiles", str(profiles), "--latency-ms", "50")
    try:
        assert server.control("GET", "faults") == {"latency_ms": 50}
        with paywire.Client({"profile_id": "p-1", "transport": {"type": "http", "base_url": server.url}}) as client:
            profile = client.call("get_profile")
        assert profile["access_levels"]["premium"]["expires_at"] is None
        assert profile["access_levels"]["premium"]["is_active"] is True
    finally:
        server.stop()


def test_a_bundle_with_an_invalid_placement_is_refused_at_start(tmp_path):
    bundle = tmp_path / "bad.json"
    bundle.write_text(json.dumps({"format_version": 1, "response_created_at": 1, "placements": {
        "broken": {"placement_audience_version_id": "v", "variations": [{"variation_id": "a", "weight": 100}]}}}))
    done = subprocess.run([DEVSERVER, "--bundle", str(bundle)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "broken" in done.stderr


def test_bad_fault_requests_are_refused_with_a_reason(devserver):
    for body in ({"status": 200}, {"drop": True, "malformed": True}, {"latency": 5}):
        with pytest.raises(urllib.error.HTTPError) as refused:
            devserver.faults(**body)
        assert refused.value.code == 400
    # Nothing changed.
    assert devserver.control("GET", "faults") == {"latency_ms": 0}
