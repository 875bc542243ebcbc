"""The typed surface end to end, checked by `mypy --strict` (make check-python-types) and run
against the example bundle: a paywall, its products with Decimal prices, events as classes, and
the same through paywire.aio.

    PAYWIRE_LIBRARY=build/lib/libpaywire.so PYTHONPATH=bindings/python \
        python3 bindings/python/examples/typed_sample.py examples/config.json examples/bundle.json
"""
import asyncio
import json
import sys
from decimal import Decimal
from typing import Any, Dict, List

import paywire
import paywire.aio
from paywire import models


def describe(products: List[models.Product]) -> List[str]:
    lines = []
    for product in products:
        amount: Decimal = product.price.amount  # exact: 9.99 stays 9.99
        period = product.subscription.period.unit if product.subscription else "once"
        lines.append(f"{product.vendor_product_id}: {amount} {product.price.currency_code} / {period}")
    return lines


def blocking(config: Dict[str, Any]) -> None:
    with paywire.Client(config) as client:
        paywall = client.get_paywall(placement_id="onboarding", locale="fr")
        print("variation", paywall.variation_id, "first product", paywall.products[0].vendor_product_id)
        print("\n".join(describe(client.get_paywall_products(paywall=paywall))))
        view = client.create_paywall_view(paywall=paywall)
        client.present_paywall_view(view_id=view.id)
        for event in client.typed_events(timeout=0.1):
            if isinstance(event, models.PaywallViewDidAppearEvent):
                print("appeared:", event.view.placement_id, "seq", event.seq)
            elif isinstance(event, models.DidLoadLatestProfileEvent):
                print("profile:", event.profile.profile_id)
        try:
            client.get_paywall(placement_id="nowhere")
        except paywire.PaywireError as error:
            print("error code:", error.code)


async def concurrent(config: Dict[str, Any]) -> None:
    async with paywire.aio.Client(config) as client:
        paywall, profile = await asyncio.gather(client.get_paywall(placement_id="onboarding"), client.get_profile())
        print("aio:", paywall.paywall_name, "for", profile.profile_id)
        async for event in client.events(timeout=0.2):
            print("aio event:", event.event, event.seq)


def main() -> None:
    config_path = sys.argv[1] if len(sys.argv) > 1 else "examples/config.json"
    bundle = sys.argv[2] if len(sys.argv) > 2 else "examples/bundle.json"
    with open(config_path) as file:
        config: Dict[str, Any] = json.load(file)  # its test store describes the products
    config["fallback"] = {"path": bundle}
    blocking(config)
    asyncio.run(concurrent(config))


if __name__ == "__main__":
    main()
