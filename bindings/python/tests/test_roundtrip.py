"""Every shape the conformance vectors spell out decodes into the generated models and encodes
back to the same JSON, numbers as written (compared as text, Decimal exactly, not 1 == 1.0).

What is skipped, and why (at the time of writing 612 params, 179 results and 90 events of the
vectors round-trip; the rest are these):
- values holding driver placeholders ($var, $json_text, $matches, $type, $json): the driver
  substitutes or matches them at run time; they are not wire JSON.
- results compared with `match: subset`: the vector lists only the members it cares about.
- expected events with members left out: events are matched as a subset unless the step says
  `match: exact`. Exact ones must decode; the driver drops `seq` from what it compares when a
  case leaves it out, so a `seq` is filled in for them. Subset ones that carry every required
  member are still round-tripped.
- params the schema refuses: some cases pass malformed params on purpose (the call expects an
  error), and some hand-write a minimal paywall the library tolerates in params. The models
  follow the schema, so params are first validated against #/$defs/params/<method>; those that
  pass must decode and round-trip.
A live test then round-trips real results and events of the library.
"""
import json
from decimal import Decimal
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import paywire
from paywire import models
from paywire._modelbase import DecodeError

ROOT = Path(__file__).resolve().parents[3]
VECTORS = sorted((ROOT / "tests" / "conformance" / "vectors").glob("*.json"))
PLACEHOLDERS = {"$var", "$json_text", "$matches", "$type", "$json"}
SCHEMA = json.loads((ROOT / "schema" / "paywire.schema.json").read_text())


def canonical(value):
    """JSON text with sorted keys and each Decimal exactly as parsed: 9.99 vs 9.990 differ."""
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + canonical(value[k]) for k in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, Decimal):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def has_placeholder(value):
    if isinstance(value, dict):
        return bool(PLACEHOLDERS & value.keys()) or any(has_placeholder(v) for v in value.values())
    if isinstance(value, list):
        return any(has_placeholder(v) for v in value)
    return False


def collect():
    params, results, events = [], [], []
    for path in VECTORS:
        for case in json.loads(path.read_text(), parse_float=Decimal)["cases"]:
            for index, step in enumerate(case.get("steps", [])):
                where = f"{case['id']}#{index}"
                method = step.get("call")
                expect = step.get("expect") or {}
                if method in models.PARAMS_MODELS and isinstance(step.get("params"), dict):
                    params.append(pytest.param(method, step["params"], id=where))
                if method in models.RESULT_DECODERS and "success" in expect and expect.get("match") != "subset":
                    results.append(pytest.param(method, expect["success"], id=where))
                for n, event in enumerate(step.get("events") or []):
                    if isinstance(event, dict) and "event" in event:
                        events.append(pytest.param(event, step.get("match") == "exact", id=f"{where}.{n}"))
    return params, results, events


PARAMS, RESULTS, EVENTS = collect()


def test_the_vectors_give_enough_to_check():
    assert len(PARAMS) > 500 and len(RESULTS) > 100 and len(EVENTS) > 300


def schema_errors(definition, value):
    validator = Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": SCHEMA["$defs"]})
    return [error.message for error in validator.iter_errors(value)]


@pytest.mark.parametrize("method,params", PARAMS)
def test_params_round_trip(method, params):
    if has_placeholder(params):
        pytest.skip("placeholder the driver substitutes")
    if schema_errors(f"params/{method}", params):
        pytest.skip("params the schema refuses (malformed on purpose, or a hand-made partial paywall)")
    decoded = models.PARAMS_MODELS[method].from_json(params)
    assert canonical(decoded.to_json()) == canonical(params)


@pytest.mark.parametrize("method,result", RESULTS)
def test_complete_results_round_trip(method, result):
    if has_placeholder(result):
        pytest.skip("placeholder the driver matches")
    decoded = models.RESULT_DECODERS[method](result)
    assert canonical(models.RESULT_ENCODERS[method](decoded)) == canonical(result)


@pytest.mark.parametrize("event,exact", EVENTS)
def test_events_round_trip(event, exact):
    if has_placeholder(event):
        pytest.skip("placeholder the driver matches")
    if exact and "seq" not in event:
        event = dict(event, seq=1)  # the driver does not compare seq when the case leaves it out
    try:
        decoded = models.parse_event(event)
    except DecodeError:
        if exact:
            raise
        pytest.skip("partial: the step matches events as a subset")
    assert type(decoded).__name__ != "UnknownEvent", "every event the vectors expect is in the schema"
    assert canonical(decoded.to_json()) == canonical(event)


def test_prices_decode_to_the_decimal_the_library_wrote():
    product = models.Product.from_json(json.loads(
        '{"vendor_product_id": "m", "localized_title": "M", "localized_description": "", "price": {"amount": 39.99,'
        ' "currency_code": "USD", "currency_symbol": "$", "localized_string": "$39.99"}, "subscription": null,'
        ' "intro_offer_eligibility": "ineligible", "is_family_shareable": false, "access_level_id": null,'
        ' "product_type": null, "future_member": [1.10]}', parse_float=Decimal))
    assert product.price.amount == Decimal("39.99") and isinstance(product.price.amount, Decimal)
    assert product.extra_fields == {"future_member": [Decimal("1.10")]}  # unknown members survive
    assert canonical(product.to_json()["future_member"]) == "[1.10]"


def test_an_envelope_keeps_null_success_apart_from_no_success():
    assert models.Envelope.from_json({"success": None}).to_json() == {"success": None}
    assert models.Envelope.from_json({"error": {"code": "timeout", "message": "", "details": {}}}).success is paywire.UNSET


def test_unknown_event_names_are_kept_not_refused():
    event = models.parse_event({"event": "from_the_future", "seq": 3, "x": 1})
    assert isinstance(event, models.UnknownEvent) and event.to_json() == {"event": "from_the_future", "seq": 3, "x": 1}


def test_what_the_library_writes_round_trips(tmp_path):
    """Real results and events, not vectors: a paywall, its products, a view, a purchase through
    the example test store, the profile; every result and every event decodes and encodes back."""
    config = json.loads((ROOT / "examples" / "config.json").read_text())
    config["fallback"] = {"path": str(ROOT / "examples" / "bundle.json")}
    seen = []
    with paywire.Client(config) as client:
        def call(method, params=None):
            result = client.call(method, params)
            decoded = models.RESULT_DECODERS[method](result)
            assert canonical(models.RESULT_ENCODERS[method](decoded)) == canonical(result), method
            seen.append(method)
            return result
        paywall = call("get_paywall", {"placement_id": "onboarding", "locale": "fr"})
        products = call("get_paywall_products", {"paywall": paywall})
        view = call("create_paywall_view", {"paywall": paywall})
        call("present_paywall_view", {"view_id": view["id"]})
        call("paywall_view_select_product", {"view_id": view["id"], "product_id": products[0]["vendor_product_id"]})
        call("paywall_view_make_purchase", {"view_id": view["id"], "product_id": products[0]["vendor_product_id"]})
        call("get_profile")
        call("get_sdk_version")
        events = list(client.events(timeout=0.5))
    for event in events:
        decoded = models.parse_event(event)
        assert not isinstance(decoded, models.UnknownEvent), event["event"]
        assert canonical(decoded.to_json()) == canonical(event), event["event"]
    names = {event["event"] for event in events}
    assert {"paywall_view_did_appear", "paywall_view_did_finish_purchase", "did_load_latest_profile"} <= names, names
    assert any(isinstance(p["price"]["amount"], Decimal) for p in products)
