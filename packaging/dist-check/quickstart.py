#!/usr/bin/env python3
"""The README's Python quick start, run from share/paywire with the wheel installed in a plain
venv: it must work as written, with the library that came inside the wheel."""
import json
from decimal import Decimal
from pathlib import Path

import paywire

# --- the quick start, as in README.md ---
config = json.load(open("examples/config.json"))  # a profile, the example bundle, a test store
with paywire.Client(config) as client:
    paywall = client.get_paywall(placement_id="onboarding", locale="fr")
    products = client.get_paywall_products(paywall=paywall)   # prices as Decimal
    profile = client.get_profile()
# --- end of the quick start ---

library = Path(paywire._lib.path).resolve()
package = Path(paywire.__file__).resolve().parent
assert library.parent == package, f"the library came from {library}, not from the wheel ({package})"
assert "site-packages" in str(library), library
assert paywall.placement.developer_id == "onboarding", paywall
assert all(isinstance(product.price.amount, Decimal) for product in products), products
assert profile.profile_id == config["profile_id"], profile
print(f"quick start: paywall {paywall.paywall_id}, products "
      f"{', '.join(p.vendor_product_id + ' ' + str(p.price.amount) for p in products)}, "
      f"profile {profile.profile_id}; paywire {paywire.version()} from {library}")
