# What the build and the tests need from the machine: Debian's packages and PyPI's.

# Everything the build and tests need that a fresh machine of this kind may lack.
deps:
	@missing=""; \
	[ -f /usr/include/jansson.h ] || missing="$$missing libjansson-dev"; \
	pkg-config --exists libcurl 2>/dev/null || missing="$$missing libcurl4-openssl-dev"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	command -v valgrind >/dev/null || missing="$$missing valgrind"; \
	command -v openssl >/dev/null || missing="$$missing openssl"; \
	: '>>> devserver: SQLite for its store, Chromium for the results page test'; \
	[ -f /usr/include/sqlite3.h ] || missing="$$missing libsqlite3-dev"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	: 'the dashboard sign-in test drives Chromium through WebDriver'; \
	command -v chromedriver >/dev/null || missing="$$missing chromium-driver"; \
	: 'the web paywall draws its redemption link as a QR code (libqrencode), which its browser test reads back (zbarimg)'; \
	[ -f /usr/include/qrencode.h ] || missing="$$missing libqrencode-dev"; \
	command -v zbarimg >/dev/null || missing="$$missing zbar-tools"; \
	: '<<< devserver'; \
	: 'web: make test-web drives the same chromium through the same chromium-driver'; \
	: '>>> server: PostgreSQL for the second engine, nginx for the replica stage, wrk for the latency bench'; \
	[ -x /usr/lib/postgresql/15/bin/initdb ] || missing="$$missing postgresql-15"; \
	command -v psql >/dev/null || missing="$$missing postgresql-client-15"; \
	command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	: '<<< server'; \
	: 'the library on an older C library: a Debian 11 root (make check-old-glibc)'; \
	command -v debootstrap >/dev/null || missing="$$missing debootstrap"; \
	[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || missing="$$missing debian-archive-keyring"; \
	: 'docs: the site draws its diagrams when it is built (tools/docs/diagrams.py): graphs with'; \
	: 'Graphviz, sequence diagrams with PlantUML (a Java program; no X needed)'; \
	command -v dot >/dev/null || missing="$$missing graphviz"; \
	command -v plantuml >/dev/null || missing="$$missing plantuml"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -c 'import jsonschema, pytest, yaml, openapi_spec_validator' 2>/dev/null || python3 -m pip install -q jsonschema pytest pyyaml openapi-spec-validator
	@# >>> devserver: scipy checks the results statistics, schemathesis tests the spec against the server,
	@# cryptography signs the App Store notifications the tests send (ES256 JWS), checks the server's
	@# response signatures outside Swift (Ed25519) and signs the verification vectors' answers;
	@# selenium (pinned below, with web) is the WebDriver client of the dashboard's sign-in test
	@python3 -c 'import scipy, schemathesis.cli, cryptography' 2>/dev/null || python3 -m pip install -q scipy schemathesis cryptography
	@# <<< devserver
	@# >>> web: selenium drives Chromium in the dashboard's sign-in test and in make test-web, pinned
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("selenium") != sys.argv[1].split("==")[1])' \
	  $(SELENIUM_PIN) 2>/dev/null || python3 -m pip install -q $(SELENIUM_PIN)
	@# <<< web
