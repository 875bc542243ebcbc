# The library against the real server over HTTP: integration, dates, PostgreSQL, security,
# replicas, crashes.

# The built-in HTTP transport against the dev server over real HTTP: every fault switch, the
# time budget, the cache across processes. The tests start and stop the server themselves.
integration: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 -m pytest -q tests/integration

# The same suite on two fixed dates, every clock of the run moved together (tests/timeshift.py):
# the last day of a 31-day month, where one calendar month after yesterday is 31 days, and 29
# February. `python3 tests/dates/sweep.py` walks every month's end of a year.
.PHONY: test-dates
test-dates: lib harness devserver deps
	python3 tests/dates/sweep.py --suites integration --dates 2027-03-31T12:00:00Z 2028-02-29T12:00:00Z

# The same suite, the outbox's kill test and the A/B check on the second engine: a PostgreSQL of
# Debian's packages started for this stage in a temporary directory on loopback, and stopped after
# (tests/postgres/cluster.py); each test server gets a database of its own.
ON_POSTGRES := PAYWIRE_DEVSERVER=$(CURDIR)/tests/postgres/devserver_on_postgres.py
integration-postgres: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python $(ON_POSTGRES) python3 tests/postgres/cluster.py -- \
	  sh -c 'python3 -m pytest -q tests/integration && \
	         python3 tests/outbox/crash_test.py $$PAYWIRE_DEVSERVER examples/bundle.json 50 && \
	         python3 examples/ab_demo.py $$PAYWIRE_DEVSERVER examples/bundle.json examples/config.json 200'

# The security suite (tests/security): every attack a hostile client made with the app key and an
# account of its own, as its steps, against the development server and the production binary,
# asserting the door holds; on SQLite, then on a PostgreSQL of this stage's own.
test-security: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python python3 -m pytest -q tests/security
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python $(ON_POSTGRES) python3 tests/postgres/cluster.py -- \
	  python3 -m pytest -q tests/security

# Replicas share nothing but the database: three servers (no --dev) behind nginx on one
# PostgreSQL, four clients of the library recording through nginx while replicas are killed
# with kill -9 and restarted; every record a client saw recorded is stored once, none lost, and
# the same batch sent to all three at once is accepted by exactly one (tests/replicas).
# What the device accepts the backend keeps, on the second engine too (make integration runs the
# same test on SQLite): every record of every vector and every paywall shape, sent to the server
# on a PostgreSQL of this stage's own (tests/integration/test_records_kept.py).
contract-postgres: lib harness devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python $(ON_POSTGRES) python3 tests/postgres/cluster.py -- \
	  python3 -m pytest -q tests/integration/test_records_kept.py tests/integration/test_status_and_environment.py

replica-test: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 tests/replicas/replica_kill.py $(SERVER_DEV) examples/bundle.json 12

# Nothing lost under kill -9: a recording child killed 50 times while the dev server drops 20%
# of requests and loses 10% of its answers; every acknowledged event id stored exactly once.
crash-test: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 tests/outbox/crash_test.py $(BINDIR)/paywire-devserver examples/bundle.json 50
