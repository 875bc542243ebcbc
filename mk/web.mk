# The web paywall's tests in a real browser (tests/web, docs/operations/testing.md).

# A local stand-in of Stripe (tests/web/stripe_standin.py: Checkout's API, its hosted page, the
# signed webhooks) and its tests; headless Chromium through chromedriver with selenium at a phone's
# and a desktop's size. Screenshots go to build/artifacts/web, emptied first. Seconds.
# selenium 4.52.0 needs certifi>=2026.10.23, which the package index did not offer when this was pinned.
SELENIUM_PIN  := selenium==4.51.0
WEB_ARTIFACTS := $(BUILD)/artifacts/web
.PHONY: test-web
test-web: deps
	rm -rf $(WEB_ARTIFACTS)
	python3 -m pytest -q tests/web
