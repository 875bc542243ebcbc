# The server (server/): its release and development builds, its unit tests, its house rules.

# The server (server/: paywire-server, its own package, so no server framework or database driver
# enters libpaywire's graph): Hummingbird 2 on SwiftNIO, routes written by hand and held to
# api/openapi.yaml by tests, each behind its door (docs/operations/security.md), SQLite or PostgreSQL. `make server` builds the release binary
# (build/bin/paywire-server: production, `make bench`). The tests and demos run a debug build
# (build/dev/paywire-server: half the compile on two cores, which `make test` cannot spare)
# through build/bin/paywire-devserver, which starts it with --dev (fault switches, /_dev/*,
# authored profiles, the test store).
SERVER_SOURCES := $(shell find server/Sources -name '*.swift') server/Package.swift
SERVER_DEV     := $(BUILD)/dev/paywire-server
# A server target may import only what its manifest entry declares: without this, SwiftPM lets a
# target import any module built before it (ServerDomain compiled with `import Logging`), and the
# layers' direction would hold by the build order instead of by Package.swift.
SERVER_IMPORT_CHECK := --explicit-target-dependency-import-check error
.PHONY: server
server: $(BINDIR)/paywire-server
devserver: $(BINDIR)/paywire-devserver
# SwiftPM keeps a path dependency's file list from when it last read the manifests: when
# the wire or the model gains or loses a file, touching the manifest makes it look again.
define server_core_files
	@mkdir -p $(BUILD)
	@find Sources/PaywireWire Sources/PaywireModel Sources/PaywireServing -name '*.swift' | sort > $(BUILD)/server-core-files.new; \
	cmp -s $(BUILD)/server-core-files.new $(BUILD)/server-core-files || touch server/Package.swift; \
	mv $(BUILD)/server-core-files.new $(BUILD)/server-core-files
endef
$(SERVER_DEV): $(SERVER_SOURCES) $(shell find Sources/PaywireWire Sources/PaywireModel Sources/PaywireServing -name '*.swift') | deps
	$(server_core_files)
	swift build --package-path server --product paywire-server $(SERVER_IMPORT_CHECK)
	@mkdir -p $(@D)
	cp server/.build/debug/paywire-server $@.new && mv $@.new $@
$(BINDIR)/paywire-server: $(SERVER_SOURCES) $(shell find Sources/PaywireWire Sources/PaywireModel Sources/PaywireServing -name '*.swift') | deps
	$(server_core_files)
	swift build -c release --package-path server --product paywire-server $(SERVER_IMPORT_CHECK)
	@mkdir -p $(@D)
	cp server/.build/release/paywire-server $@.new && mv $@.new $@
$(BINDIR)/paywire-devserver: $(SERVER_DEV)
	@mkdir -p $(@D)
	printf '#!/bin/sh\n# paywire-server in development mode (make devserver writes this file).\nexec "$$(dirname "$$0")/../dev/paywire-server" --dev "$$@"\n' > $@
	chmod +x $@

# One way each: no request input reaches a server handler but as a parameter (no
# task-locals), the server's time, randomness and loggers come from its composition root
# (Ops/Ambient.swift, Ops/ServerLog.swift, main.swift), the pure core reads no clock and no
# generator of its own (the boundary target hands them in), and the server's domain
# (server/Sources/ServerDomain) reads no file and no network: its target cannot import the
# server's frameworks or drivers, and this grep keeps Foundation's I/O out too. A grep, so it
# costs nothing.
.PHONY: check-ambient
check-ambient:
	@bad=$$(grep -rnE 'RawBody|@TaskLocal|Date\(\)|Logger\(label:|SystemRandomNumberGenerator|UUID\(\)|\.random\(in' server/Sources \
	  | grep -vE '^server/Sources/paywire-server/(Ops/Ambient|Ops/ServerLog|main)\.swift:'); \
	if [ -n "$$bad" ]; then echo "ambient input or state outside the server's composition root:"; echo "$$bad"; exit 1; fi
	@bad=$$(grep -rnE 'import (Glibc|Foundation)|SystemRandomNumberGenerator|clock_gettime' Sources/PaywireCore Sources/PaywireModel Sources/PaywireWire); \
	if [ -n "$$bad" ]; then echo "the pure core reads the system itself:"; echo "$$bad"; exit 1; fi
	@bad=$$(grep -rnE 'FoundationNetworking|URLSession|FileManager|FileHandle|fopen\(|ProcessInfo|getenv' server/Sources/ServerDomain); \
	if [ -n "$$bad" ]; then echo "the server's domain does I/O (the executable reads files and the network, and hands in values):"; echo "$$bad"; exit 1; fi
	@echo "check-ambient: time, randomness, logs and request input are passed in"

# The server's pure rules on their own (server/Tests: Stripe's signature against an HMAC made
# outside Swift, redemption tokens, Play's purchase states), on the debug build the devserver uses.
.PHONY: test-server-unit
test-server-unit: | deps
	$(server_core_files)
	swift build --package-path server --build-tests
	swift test --package-path server --skip-build
