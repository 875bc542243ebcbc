"""Behaviour of the Python binding over the real library."""
import ctypes
import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

import paywire
import paywire.models
from paywire import _modelbase

ROOT = Path(__file__).resolve().parents[3]
CONFIG = json.loads((ROOT / "examples" / "config.json").read_text())
CONFIG["fallback"] = {"path": str(ROOT / "examples" / "bundle.json")}


@pytest.fixture
def client():
    with paywire.Client(CONFIG) as client:
        yield client


def test_abi_version_is_checked_at_import():
    assert paywire.abi_version() == 1
    assert paywire.version() == paywire.__version__


def test_call_returns_the_success_result(client):
    assert client.call("get_sdk_version")["version"] == paywire.__version__


def test_failed_call_raises_paywire_error_with_code(client):
    with pytest.raises(paywire.PaywireError) as raised:
        client.call("get_paywall", {"placement_id": "nowhere"})
    assert raised.value.code == "not_found"
    assert raised.value.status == "FAILED"
    assert raised.value.details == {"placement_id": "nowhere"}


def test_unknown_method_raises_with_unknown_method_code(client):
    with pytest.raises(paywire.PaywireError) as raised:
        client.call("no_such_method")
    assert raised.value.code == "unknown_method"
    assert raised.value.status == "UNKNOWN_METHOD"


def test_prices_arrive_as_exact_decimals(client):
    paywall = client.call("get_paywall", {"placement_id": "settings"})
    products = client.call("get_paywall_products", {"paywall": paywall})
    amounts = {product["vendor_product_id"]: product["price"]["amount"] for product in products}
    assert amounts == {"premium_monthly": Decimal("9.99"), "premium_annual": Decimal("59.99"), "lifetime": Decimal("149.00")}


def test_paywall_with_decimals_round_trips_into_products(client):
    paywall = client.call("get_paywall", {"placement_id": "feature_gate"})
    products = client.call("get_paywall_products", {"paywall": paywall})
    assert [product["paywall_product_index"] for product in products] == [0]


def test_async_call_result_arrives_through_events(client):
    call_id = client.call_async("get_profile")
    result, others = client.wait_for(call_id)
    assert result["profile_id"] == "demo-profile-0001"
    # Only the profile snapshot every client starts with came before the result.
    assert [event["event"] for event in others] == ["did_load_latest_profile"]


def test_async_error_is_raised_by_wait_for(client):
    call_id = client.call_async("get_paywall", {"placement_id": 3})
    with pytest.raises(paywire.PaywireError) as raised:
        client.wait_for(call_id)
    assert raised.value.code == "wrong_param"
    assert raised.value.details["field"] == "placement_id"


def test_a_refused_call_async_carries_the_code_an_envelope_would(client):
    # call_async refuses with a status and no envelope; call, given the same, writes an envelope.
    call_id, out = ctypes.c_uint64(), ctypes.c_void_p()
    for handle, method in [(client._handle, None), (client._handle, b"\xff\xfe"), (0x1234, b"get_profile")]:
        status = paywire._lib.paywire_client_call_async(handle, method, None, ctypes.byref(call_id))
        assert paywire._lib.paywire_client_call(handle, method, None, ctypes.byref(out)) == status
        envelope = json.loads(paywire._native.take_string(paywire._lib, out.value))
        assert paywire._refused(status, "call_async").code == envelope["error"]["code"]
    # And through the binding's own call_async.
    real, client._handle = client._handle, 0x1234
    try:
        with pytest.raises(paywire.PaywireError) as raised:
            client.call_async("get_profile")
        assert (raised.value.status, raised.value.code) == ("INVALID_HANDLE", "invalid_handle")
    finally:
        client._handle = real


def test_sync_client_call_async_past_the_limit_raises_busy_and_every_accepted_call_is_answered():
    with paywire.Client({"profile_id": "flood", "async_call_limit": 8}) as client:
        accepted, refused = [], []
        for _ in range(100):
            try:
                accepted.append(client.call_async("get_profile"))
            except paywire.PaywireError as error:
                refused.append(error)
        assert len(accepted) == 8 and len(refused) == 92
        assert {(error.status, error.code) for error in refused} == {("BUSY", "busy")}
        answered = []
        while len(answered) < len(accepted):
            result, _ = client.wait_for(accepted[len(answered)])
            answered.append(result)
        assert all(result["profile_id"] == "flood" for result in answered)
        client.wait_for(client.call_async("get_profile"))  # room again


def test_every_status_maps_to_a_code_the_wire_uses():
    schema = json.loads((ROOT / "schema" / "paywire.schema.json").read_text())
    text = json.dumps(schema)
    for status, code in paywire._WIRE_CODES.items():
        assert f'"{code}"' in text, f"{code} (status {status}) is not a code of the wire schema"


def test_events_iterator_yields_in_seq_order_and_stops_when_quiet(client):
    for _ in range(5):
        client.call_async("get_log_level")
    events = list(client.events(timeout=1.0))
    assert [event["seq"] for event in events] == [1, 2, 3, 4, 5, 6]
    assert [event["event"] for event in events] == ["did_load_latest_profile"] + ["call_result"] * 5


def test_poll_returns_none_when_nothing_is_queued(client):
    assert client.poll(0)["event"] == "did_load_latest_profile"  # the snapshot every client starts with
    assert client.poll(0) is None


def test_closed_client_refuses_calls_and_close_is_idempotent():
    client = paywire.Client({"profile_id": "p"})
    client.close()
    client.close()
    with pytest.raises(paywire.PaywireError) as raised:
        client.call("get_profile")
    assert raised.value.code == "closed"


def test_bad_config_raises_naming_the_field():
    with pytest.raises(paywire.PaywireError) as raised:
        paywire.Client({"log_level": "shout"})
    assert raised.value.details["field"] == "log_level"
    assert raised.value.status == "INVALID_ARGUMENT"


def test_library_is_found_without_environment_variable(tmp_path):
    """From a checkout, the binding finds build/lib on its own."""
    env = {key: value for key, value in os.environ.items() if key != "PAYWIRE_LIBRARY"}
    env["PYTHONPATH"] = str(ROOT / "bindings" / "python")
    output = subprocess.run([sys.executable, "-c", "import paywire; print(paywire._lib.path)"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout
    assert "build/lib/libpaywire.so.1" in output


def test_wrong_library_path_is_a_clear_error(tmp_path):
    env = dict(os.environ, PAYWIRE_LIBRARY=str(tmp_path / "missing.so"), PYTHONPATH=str(ROOT / "bindings" / "python"))
    completed = subprocess.run([sys.executable, "-c", "import paywire"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert completed.returncode != 0
    assert "libpaywire not found" in completed.stderr


def test_make_purchase_takes_the_product_get_paywall_products_returned(client):
    paywall = client.get_paywall(placement_id="onboarding")
    products = client.get_paywall_products(paywall=paywall)
    params = paywire.models.MakePurchaseParams(product=products[0], paywall=paywall)
    assert params.to_json()["product"] == products[0].to_json()
    result = client.make_purchase(product=products[0], paywall=paywall)
    assert (result.type, result.product_id) == ("success", products[0].vendor_product_id)


def test_a_free_json_param_takes_models_inside_dicts_and_lists_too():
    encoded = _modelbase.plain({"items": [paywire.models.Offer(type="promotional", id="p1")], "n": 1})
    assert encoded == {"items": [{"type": "promotional", "id": "p1"}], "n": 1}
