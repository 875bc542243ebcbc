#!/usr/bin/env python3
"""The README's Python quick start, run from an empty folder with the wheel installed in a plain
venv and the examples from the Debian package: it must work as written, with the library that
came inside the wheel."""
from decimal import Decimal
from pathlib import Path

# --- the quick start, as in README.md ---
import json
import os
import paywire
examples = os.environ.get("PAYWIRE_EXAMPLES", "/usr/share/paywire/examples")  # or a checkout's examples/
config = json.load(open(os.path.join(examples, "config.json")))  # a profile and a test store
config["fallback"]["path"] = os.path.join(examples, "bundle.json")  # the example bundle, from any folder
with paywire.Client(config) as client:
    paywall = client.get_paywall(placement_id="onboarding", locale="fr")
    products = client.get_paywall_products(paywall=paywall)   # prices as Decimal
    purchase = client.make_purchase(product=products[0], paywall=paywall)   # the test store buys it
    profile = client.get_profile()
    print(purchase.type, purchase.product_id, profile.profile_id)
# --- end of the quick start ---

library = Path(paywire._lib.path).resolve()
package = Path(paywire.__file__).resolve().parent
assert library.parent == package, f"the library came from {library}, not from the wheel ({package})"
assert "site-packages" in str(library), library
assert paywall.placement.developer_id == "onboarding", paywall
assert all(isinstance(product.price.amount, Decimal) for product in products), products
assert profile.profile_id == config["profile_id"], profile
assert (purchase.type, purchase.product_id) == ("success", products[0].vendor_product_id), purchase
print(f"quick start: paywall {paywall.paywall_id}, products "
      f"{', '.join(p.vendor_product_id + ' ' + str(p.price.amount) for p in products)}, "
      f"profile {profile.profile_id}; paywire {paywire.version()} from {library}")
