"""What went otherwise than asked reaches a Python developer as a PaywireWarning, without reading
log events; a near miss of a config key is an error; the raw contract imports no models."""
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import paywire

ROOT = Path(__file__).resolve().parents[3]
BUNDLE = str(ROOT / "examples" / "bundle.json")


def test_an_unknown_config_key_is_a_warning_naming_it():
    with pytest.warns(paywire.PaywireWarning, match="colour"):
        with paywire.Client({"profile_id": "w", "colour": "blue"}):
            pass


def test_a_config_without_unknown_keys_warns_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with paywire.Client({"profile_id": "w", "fallback": {"path": BUNDLE}}) as client:
            client.get_paywall(placement_id="onboarding")


def test_a_near_miss_of_a_config_key_is_refused_with_the_key_it_likely_meant():
    with pytest.raises(paywire.PaywireError) as raised:
        paywire.Client({"profile_id": "w", "fallbak": {"path": BUNDLE}})
    assert raised.value.code == "wrong_param"
    assert raised.value.details["did_you_mean"] == "fallback"


def test_a_paywall_served_because_the_backend_refused_the_key_is_a_warning():
    config = {"profile_id": "w", "fallback": {"path": BUNDLE}, "api_key": "wrong", "refresh_profile_on_start": False,
              "transport": {"type": "host", "base_url": "https://api.test"}}
    with paywire.Client(config) as client:
        call_id = client.call_async("get_paywall", {"placement_id": "onboarding"})
        request = next(event for event in client.events(timeout=2) if event["event"] == "host_request")
        client.call("host_respond", {"request_id": request["request_id"], "result": {
            "status": 401, "headers": [], "body": json.dumps({"error": {"code": "unauthorized", "message": "no"}})}})
        with pytest.warns(paywire.PaywireWarning, match="HTTP 401, unauthorized"):
            paywall, _ = client.wait_for(call_id)
        assert (paywall["source"], paywall["backend_error"]) == ("fallback", {"status": 401, "code": "unauthorized"})


def test_importing_the_binding_does_not_import_the_models_until_they_are_used():
    code = ("import sys, paywire; assert 'paywire._generated.models' not in sys.modules or "
            "type(sys.modules['paywire._generated.models']).__name__ == '_LazyModule', 'models imported'; "
            "paywire.models.Paywall; assert hasattr(sys.modules['paywire._generated.models'], 'Paywall')")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
