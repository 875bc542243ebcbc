# Demos a newcomer runs: the C runner's session, the remote source, a subscription's life, an
# A/B test end to end.

demo: deps harness
	$(BINDIR)/paywire-harness --demo examples/config.json

# The remote source against the dev server: backend, cache, time budget and bundle in turn.
demo-remote: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 examples/remote_demo.py $(BINDIR)/paywire-devserver examples/bundle.json

# A subscription's life through the dev server's store-notification route, as the device sees
# it after each step (renewals, a grace period, recovery, cancellation, expiry, a refund).
demo-lifecycle: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 examples/lifecycle_demo.py $(BINDIR)/paywire-devserver examples/bundle.json examples/config.json

# An A/B test end to end over the built-in transport: 2,000 simulated users of a 50/50 paywall,
# buying 4% vs 6%, while the dev server drops 20% of requests and restarts once; the dev
# server's results must add up to what the simulation did. `make test` runs 200 users.
AB_PROFILES ?= 2000
demo-ab: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 examples/ab_demo.py $(BINDIR)/paywire-devserver examples/bundle.json examples/config.json $(AB_PROFILES)
ab-check: lib devserver deps
	@$(MAKE) --no-print-directory demo-ab AB_PROFILES=200

# A/B bucketing at scale: 100,000 profile ids through the Python binding against an independent
# MD5 (hashlib) and the rule; shares within statistical bounds of the weights.
test-ab: lib deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python python3 -m pytest -q tests/ab
