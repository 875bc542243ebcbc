#!/usr/bin/env python3
"""A release's Python binding through its typed Client against today's library (make compat).

Run from the release's worktree, with its bindings/python first on the path. The conformance
runners drive the library through each binding's ABI declarations; this goes through the typed
layer a host uses: the client's schema check at construction, and the release's generated models
reading today's results (get_sdk_version's carries a member schema 1.0 does not name).
"""
import json
import sys

import paywire

today = sys.argv[1]
config = json.load(open("examples/config.json", encoding="utf-8"))
with paywire.Client(config) as client:
    version = client.get_sdk_version()
    paywall = client.get_paywall(placement_id="onboarding")
    products = client.get_paywall_products(paywall=paywall)
    profile = client.get_profile()
assert version.version == today, version
assert products and all(product.vendor_product_id for product in products), products
assert profile.profile_id == config["profile_id"], profile
print(f"typed python: paywire {paywire.__version__} binding read library {version.version}: paywall "
      f"{paywall.paywall_id}, products {', '.join(p.vendor_product_id for p in products)}, profile {profile.profile_id}")
