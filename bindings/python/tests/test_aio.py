"""paywire.aio over the real library: awaited typed calls, errors, async events, closing."""
import asyncio
import json
from pathlib import Path

import pytest

import paywire
import paywire.aio
from paywire import models

ROOT = Path(__file__).resolve().parents[3]
CONFIG = json.loads((ROOT / "examples" / "config.json").read_text())
CONFIG["fallback"] = {"path": str(ROOT / "examples" / "bundle.json")}


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 10))


def test_concurrent_awaited_calls_return_typed_results():
    async def main():
        async with paywire.aio.Client(CONFIG) as client:
            return await asyncio.gather(client.get_paywall(placement_id="onboarding", locale="fr"),
                                        client.get_profile(), client.call("get_sdk_version"))
    paywall, profile, raw = run(main())
    assert isinstance(paywall, models.Paywall) and paywall.products[0].vendor_product_id
    assert isinstance(profile, models.Profile) and raw["version"] == paywire.__version__


def test_a_failed_call_raises_with_the_wire_code():
    async def main():
        async with paywire.aio.Client(CONFIG) as client:
            await client.get_paywall(placement_id="nowhere")
    with pytest.raises(paywire.PaywireError) as raised:
        run(main())
    assert raised.value.code == "not_found"


def test_events_are_typed_and_call_results_of_own_calls_are_not_among_them():
    async def main():
        async with paywire.aio.Client(CONFIG) as client:
            paywall = await client.get_paywall(placement_id="onboarding")
            view = await client.create_paywall_view(paywall=paywall)
            await client.present_paywall_view(view_id=view.id)
            return [event async for event in client.events(timeout=0.3)]
    events = run(main())
    assert [type(e).__name__ for e in events] == ["DidLoadLatestProfileEvent", "PaywallViewDidAppearEvent"]
    assert [e.seq for e in events] == sorted(e.seq for e in events)


def test_closed_client_refuses_calls_and_ends_event_iteration():
    async def main():
        client = paywire.aio.Client(CONFIG)
        await client.get_profile()
        await client.aclose()
        await client.aclose()
        # What was buffered before the close is still read; then the iteration ends (no timeout).
        assert [e.event async for e in client.events()] == ["did_load_latest_profile"]
        await client.get_profile()
    with pytest.raises(paywire.PaywireError) as raised:
        run(main())
    assert raised.value.code == "closed"


def test_more_async_calls_than_the_limit_are_each_refused_at_the_call_or_answered():
    # 2,000 awaited calls fired before yielding once, against async_call_limit 50, with a pump
    # that takes events slowly: each call must either raise BUSY at once or be answered. None
    # may wait for ever (asyncio.wait_for in run() would fail the test).
    config = {"profile_id": "flood", "async_call_limit": 50, "event_queue_limit": 16}

    async def main():
        async with paywire.aio.Client(config, poll_interval=0.2) as client:
            outcomes = await asyncio.gather(*(client.get_profile() for _ in range(2000)), return_exceptions=True)
            retried = await client.get_profile()  # once the answers were taken, there is room again
            return outcomes, retried
    outcomes, retried = run(main())
    answered = [o for o in outcomes if isinstance(o, models.Profile)]
    refused = [o for o in outcomes if isinstance(o, paywire.PaywireError)]
    assert len(answered) + len(refused) == 2000
    assert {(error.status, error.code) for error in refused} == {("BUSY", "busy")}
    assert "async_call_limit" in str(refused[0])
    assert 50 <= len(answered) < 2000
    assert isinstance(retried, models.Profile)


def test_calls_still_waiting_when_the_client_closes_fail_with_closed():
    config = dict(CONFIG, store={"type": "host"}, host_request_timeout_ms=60_000)

    async def main():
        client = paywire.aio.Client(config)
        waiting = asyncio.ensure_future(client.restore_purchases())  # waits for the host's store
        await asyncio.sleep(0.2)
        await client.aclose()
        return await asyncio.gather(waiting, return_exceptions=True)
    (outcome,) = run(main())
    assert isinstance(outcome, paywire.PaywireError) and outcome.code == "closed"
