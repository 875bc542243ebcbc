"""Bundles of the web paywall's tests (test_web_paywall.py, test_dashboard_previews.py): a `web`
placement whose variations show the example catalog's subscriptions and lifetime, one of them
with a builder layout."""
import json

#: A builder layout: a header, features, three plans, a Continue button and a legal line.
BUILT = {"layout": "stack", "sections": [
    {"type": "header", "title": "Go Premium", "subtitle": "Everything, on every device"},
    {"type": "features_list", "items": [{"text": "No ads", "icon": "ban"}, {"text": "Offline mode"}]},
    {"type": "plan_selection", "style": "horizontal_cards", "plans": [
        {"product_id": "premium_annual", "badge": "Best value", "highlighted": True},
        {"product_id": "premium_monthly"}, {"product_id": "lifetime"}]},
    {"type": "cta_button", "text": "Continue", "action": "purchase"},
    {"type": "legal", "text": "Subscriptions renew until cancelled."}]}


def variation(variation_id, paywall_name, **fields):
    """A variation of the three products, weight 50, with an English remote config."""
    return {"variation_id": variation_id, "paywall_id": "pw-" + variation_id, "paywall_name": paywall_name, "weight": 50,
            "products": ["premium_annual", "premium_monthly", "lifetime"], "remote_configs": [{"lang": "en", "data": "{}"}], **fields}


def web_placement(variations):
    """The `web` placement: one audience, the A/B test `web_layout`."""
    return {"ab_test_name": "web_layout", "placement_audience_version_id": "web-all-v1", "audience_name": "All", "revision": 1,
            "variations": variations}


def write_bundle(path, placements):
    path.write_text(json.dumps({"format_version": 1, "response_created_at": 1732000000000, "placements": placements}))
    return path
