# Paywire build, test, demo and install. Quick start: `make demo`, then `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := all

VERSION     := 0.1.0
ABI         := 1
PREFIX      ?= /usr/local
BUILD       := build
LIBDIR      := $(BUILD)/lib
BINDIR      := $(BUILD)/bin
LIB_REAL    := libpaywire.so.$(ABI).0.0
LIB_SONAME  := libpaywire.so.$(ABI)
CC          ?= cc
CXX         ?= c++
STRICT      := -Wall -Wextra -Werror -pedantic
# Sources of the release library; the Swift build is incremental, this only decides when to ask.
SWIFT_SOURCES := Package.swift $(shell find Sources/PaywireCore Sources/Paywire Sources/CCurl Sources/CSQLite -name '*.swift' -o -name '*.map' -o -name '*.h' -o -name '*.modulemap')
RESULTS     := $(BUILD)/conformance-results
VALGRIND    := valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The toolchain's clang: its ThreadSanitizer runtime is the one the Swift TSan build uses.
SWIFT_BIN   := $(dir $(shell readlink -f $$(command -v swift)))
TSAN_DIR    := $(BUILD)/tsan

.PHONY: all deps lib harness demo demo-remote test test-swift check-header check-exports check-install \
        check-api check-no-http conformance conformance-c conformance-python corpus test-python integration devserver stress bench install clean \
        test-ab crash-test demo-ab ab-check deps-java deps-dotnet java dotnet test-java test-dotnet conformance-java conformance-dotnet conformance-matrix

all: lib harness

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
	: '<<< devserver'; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -c 'import jsonschema, pytest, yaml, openapi_spec_validator' 2>/dev/null || python3 -m pip install -q jsonschema pytest pyyaml openapi-spec-validator
	@# >>> devserver: scipy checks the results statistics, schemathesis tests the spec against the server
	@python3 -c 'import scipy, schemathesis.cli' 2>/dev/null || python3 -m pip install -q scipy schemathesis
	@# <<< devserver

# The self-contained release library: Swift runtime linked in, only paywire_* exported.
lib: $(LIBDIR)/$(LIB_REAL)
$(LIBDIR)/$(LIB_REAL): $(SWIFT_SOURCES) | deps
	swift build -c release -Xswiftc -static-stdlib --product paywire
	@mkdir -p $(LIBDIR)
	cp .build/release/libpaywire.so $@
	ln -sf $(LIB_REAL) $(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(LIBDIR)/libpaywire.so

harness: $(BINDIR)/paywire-harness
$(BINDIR)/paywire-harness: Sources/paywire-harness/harness.c include/paywire.h $(LIBDIR)/$(LIB_REAL) | deps
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude $$(pkg-config --cflags jansson) $< -o $@ \
	  -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' $$(pkg-config --libs jansson) -lpthread

# The dev server: the bundle over the backend API on loopback, with fault switches. Its own
# package (tools/devserver), so its server framework never enters libpaywire's graph.
devserver: $(BINDIR)/paywire-devserver
$(BINDIR)/paywire-devserver: $(shell find tools/devserver/Sources Sources/PaywireCore -name '*.swift') tools/devserver/Package.swift | deps
	swift build -c release --package-path tools/devserver --product paywire-devserver
	@mkdir -p $(BINDIR)
	cp tools/devserver/.build/release/paywire-devserver $@

BENCH_SOURCES := bench/bench.c bench/measure.c bench/outbox.c
$(BINDIR)/paywire-bench: $(BENCH_SOURCES) bench/bench.h include/paywire.h $(LIBDIR)/$(LIB_REAL) | deps
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude $$(pkg-config --cflags jansson sqlite3) $(BENCH_SOURCES) -o $@ \
	  -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' $$(pkg-config --libs jansson sqlite3) -lpthread

demo: deps harness
	$(BINDIR)/paywire-harness --demo examples/config.json

# The remote source against the dev server: backend, cache, time budget and bundle in turn.
demo-remote: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 examples/remote_demo.py $(BINDIR)/paywire-devserver examples/bundle.json

test: deps test-swift check-header check-exports check-install check-no-http check-api conformance corpus test-python test-java test-dotnet integration crash-test test-ab ab-check demo-remote stress conformance-matrix
	@echo "make test: all checks passed"

test-swift: deps
	swift test

# The header compiles cleanly as C99 and as C++.
check-header:
	@mkdir -p $(BUILD)
	printf '#include "paywire.h"\nint main(void) { return paywire_abi_version() == PAYWIRE_ABI_VERSION ? 0 : 1; }\n' > $(BUILD)/header_check.c
	$(CC) -std=c99 $(STRICT) -Iinclude -fsyntax-only $(BUILD)/header_check.c
	$(CXX) -x c++ -std=c++11 $(STRICT) -Iinclude -fsyntax-only $(BUILD)/header_check.c
	@echo "header: C99 and C++ clean"

# The library exports exactly the header's functions, carries its SONAME, and needs no Swift runtime.
check-exports: lib
	@exported=$$(nm -D --defined-only $(LIBDIR)/$(LIB_REAL) | awk 'NF==3 {print $$3}' | sort -u); \
	declared=$$(grep -oE '\bpaywire_[a-z0-9_]+[[:space:]]*\(' include/paywire.h | tr -d ' (' | sort -u); \
	if [ "$$exported" != "$$declared" ]; then \
	  echo "exports differ from include/paywire.h:"; diff <(echo "$$declared") <(echo "$$exported"); exit 1; fi; \
	readelf -d $(LIBDIR)/$(LIB_REAL) | grep -q "Library soname: \[$(LIB_SONAME)\]" || { echo "SONAME is not $(LIB_SONAME)"; exit 1; }; \
	if ldd $(LIBDIR)/$(LIB_REAL) | grep -q libswift; then echo "library depends on the Swift runtime:"; ldd $(LIBDIR)/$(LIB_REAL); exit 1; fi; \
	echo "exports: $$(echo $$exported | wc -w) symbols, all declared in paywire.h; SONAME $(LIB_SONAME); no libswift*"

# `make install PREFIX=...`, then a C program built only from `pkg-config --cflags --libs paywire`.
install: lib
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 0755 $(LIBDIR)/$(LIB_REAL) $(DESTDIR)$(PREFIX)/lib/$(LIB_REAL)
	ln -sf $(LIB_REAL) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/libpaywire.so
	install -m 0644 include/paywire.h $(DESTDIR)$(PREFIX)/include/paywire.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' packaging/paywire.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/paywire.pc

check-install: lib deps
	@prefix=$$(mktemp -d); trap 'rm -rf "$$prefix"' EXIT; \
	$(MAKE) --no-print-directory -s install PREFIX="$$prefix" && \
	export PKG_CONFIG_PATH="$$prefix/lib/pkgconfig" && \
	$(CC) -std=c99 $(STRICT) tests/install/hello.c -o "$$prefix/hello" $$(pkg-config --cflags --libs paywire) && \
	LD_LIBRARY_PATH="$$prefix/lib" "$$prefix/hello" && \
	echo "install: pkg-config build against $$prefix works"

# The backend API description is valid, and the bodies the vectors play match it.
check-api: deps
	python3 tests/api/check_openapi.py

conformance: conformance-c conformance-python conformance-java conformance-dotnet

conformance-c: harness
	python3 tests/conformance/driver.py --runner c --jobs 2 --openapi api/openapi.yaml --results $(RESULTS)/c.json -- $(BINDIR)/paywire-harness

conformance-python: lib deps
	PAYWIRE_LIBRARY=$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 tests/conformance/driver.py --runner python --jobs 2 --results $(RESULTS)/python.json -- python3 bindings/python/conformance_runner.py

# The bad-input corpus and every conformance vector through the C runner under valgrind: no
# crash, no invalid access, no definite leak. Two cases at a time (one per core).
corpus: harness
	python3 tests/conformance/driver.py --runner c-valgrind --jobs 2 --results $(RESULTS)/c-valgrind.json \
	  --vectors tests/corpus --vectors tests/conformance/vectors -- $(VALGRIND) $(BINDIR)/paywire-harness

# The library built without libcurl (PAYWIRE_NO_BUILTIN_HTTP=1), for hosts that always carry
# requests themselves: no libcurl linked; transport.type http refused naming the field.
check-no-http: deps
	PAYWIRE_NO_BUILTIN_HTTP=1 swift build --scratch-path .build-nohttp --product paywire
	@! ldd .build-nohttp/debug/libpaywire.so | grep libcurl
	PAYWIRE_LIBRARY=$(CURDIR)/.build-nohttp/debug/libpaywire.so PYTHONPATH=bindings/python \
	  python3 tests/install/check_no_builtin_http.py

# The built-in HTTP transport against the dev server over real HTTP: every fault switch, the
# time budget, the cache across processes. The tests start and stop the server themselves.
integration: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 -m pytest -q tests/integration

# Nothing lost under kill -9: a recording child killed 50 times while the dev server drops 20%
# of requests and loses 10% of its answers; every acknowledged event id stored exactly once.
crash-test: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 tests/outbox/crash_test.py $(BINDIR)/paywire-devserver examples/bundle.json 50

# An A/B test end to end over the built-in transport: 2,000 simulated users of a 50/50 paywall,
# buying 4% vs 6%, while the dev server drops 20% of requests and restarts once; the dev
# server's results must add up to what the simulation did. `make test` runs 200 users.
AB_PROFILES ?= 2000
demo-ab: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 examples/ab_demo.py $(BINDIR)/paywire-devserver examples/bundle.json examples/config.json $(AB_PROFILES)
ab-check: lib devserver deps
	@$(MAKE) --no-print-directory demo-ab AB_PROFILES=200

# The binding's tests, and a pip install of it into a fresh virtualenv that finds the library.
test-python: lib deps
	PAYWIRE_LIBRARY=$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python python3 -m pytest -q bindings/python/tests
	@rm -rf $(BUILD)/venv && python3 -m venv --system-site-packages $(BUILD)/venv
	$(BUILD)/venv/bin/python -m pip install -q --no-deps ./bindings/python
	@rm -rf bindings/python/build
	cd $(BUILD) && PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_SONAME) venv/bin/python -c \
	  'import paywire; c = paywire.Client({"profile_id": "pip"}); print("pip-installed binding:", paywire.__file__, c.call("get_sdk_version")["version"]); c.close()'

# 1,000 views with purchases from 4 threads against a ThreadSanitizer build of the library:
# every event exactly once, in seq order, each view's flow in order, and no data race.
stress: devserver
	swift build --scratch-path .build-tsan --sanitize=thread --product paywire
	@mkdir -p $(TSAN_DIR)
	cp .build-tsan/debug/libpaywire.so $(TSAN_DIR)/libpaywire.so.$(ABI)
	ln -sf libpaywire.so.$(ABI) $(TSAN_DIR)/libpaywire.so
	$(SWIFT_BIN)clang -std=c99 $(STRICT) -g -O1 -fsanitize=thread -Iinclude tests/stress/stress.c -o $(TSAN_DIR)/stress \
	  -L$(TSAN_DIR) -lpaywire -L$(SWIFT_BIN)../lib/swift/linux -ldispatch -lBlocksRuntime \
	  -Wl,-rpath,$(CURDIR)/$(TSAN_DIR):$(SWIFT_BIN)../lib/swift/linux -lpthread
	@$(BINDIR)/paywire-devserver --bundle examples/bundle.json > $(TSAN_DIR)/devserver.out & server=$$!; \
	for i in $$(seq 100); do grep -q listening $(TSAN_DIR)/devserver.out && break; sleep 0.1; done; \
	url=$$(awk '{print $$3; exit}' $(TSAN_DIR)/devserver.out); \
	echo "TSAN_OPTIONS=... PAYWIRE_STRESS_BACKEND=$$url $(TSAN_DIR)/stress"; \
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" PAYWIRE_STRESS_BACKEND=$$url $(TSAN_DIR)/stress; status=$$?; \
	kill $$server; exit $$status

# ---- JVM and .NET bindings (bindings/java, bindings/dotnet) ---------------------------------
# Debian's JDK, JNA and gson for the JVM; Debian's Mono (runtime, mcs, System.Json: not all of
# mono-complete) for .NET. Both runners run the vectors and the bad-input corpus.
JAVA_DIR    := $(BUILD)/java
JAVA_LIBS   := /usr/share/java/jna.jar:/usr/share/java/gson.jar
JAVAC       := javac -Xlint:all -Werror --release 11
JAVA_CP     := $(JAVA_LIBS):$(CURDIR)/$(JAVA_DIR)/paywire.jar
JAVA_RUN_CP := $(JAVA_CP):$(CURDIR)/$(JAVA_DIR)/paywire-conformance.jar
# One short-lived JVM per case: classes from an archive made at build time, no C2, serial GC,
# and JVM warnings on stderr, since stdout carries the protocol.
JAVA_RUNNER := java -XX:SharedArchiveFile=$(CURDIR)/$(JAVA_DIR)/runner.jsa -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
               -Xlog:disable -Xlog:all=warning:stderr -cp $(JAVA_RUN_CP) dev.paywire.conformance.ConformanceRunner
DOTNET_DIR  := $(BUILD)/dotnet
MCS         := mcs -warnaserror -warn:4 -r:System.Json.dll
BINDING_VECTORS := --vectors tests/conformance/vectors --vectors tests/corpus
APT_INSTALL := $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends

deps-java:
	@missing=""; \
	command -v javac >/dev/null && command -v jar >/dev/null || missing="$$missing default-jdk-headless"; \
	[ -f /usr/share/java/jna.jar ] || missing="$$missing libjna-java"; \
	[ -f /usr/share/java/gson.jar ] || missing="$$missing libgoogle-gson-java"; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; $(APT_INSTALL) $$missing >/dev/null; fi

deps-dotnet:
	@missing=""; \
	command -v mono >/dev/null || missing="$$missing mono-runtime"; \
	command -v mcs >/dev/null || missing="$$missing mono-mcs"; \
	[ -f /usr/lib/mono/4.5/System.Json.dll ] || missing="$$missing libmono-system-json4.0-cil"; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; $(APT_INSTALL) $$missing >/dev/null; fi

java: $(JAVA_DIR)/paywire.jar $(JAVA_DIR)/paywire-conformance.jar $(JAVA_DIR)/runner.jsa $(JAVA_DIR)/tests.stamp
$(JAVA_DIR)/paywire.jar: $(shell find bindings/java/src -name '*.java') | deps-java
	@rm -rf $(JAVA_DIR)/classes
	$(JAVAC) -cp $(JAVA_LIBS) -d $(JAVA_DIR)/classes $^
	jar --create --file $@ -C $(JAVA_DIR)/classes .
$(JAVA_DIR)/paywire-conformance.jar: $(shell find bindings/java/runner -name '*.java') $(JAVA_DIR)/paywire.jar
	@rm -rf $(JAVA_DIR)/runner-classes
	$(JAVAC) -cp $(JAVA_CP) -d $(JAVA_DIR)/runner-classes $(filter %.java,$^)
	jar --create --file $@ -C $(JAVA_DIR)/runner-classes .
# The class-data archive of one runner session (a call, a handler, a poll), for faster JVM starts.
$(JAVA_DIR)/runner.jsa: $(JAVA_DIR)/paywire-conformance.jar $(LIBDIR)/$(LIB_REAL)
	@rm -f $@
	printf '%s\n' '{"op":"hello"}' '{"op":"client_new","client":"main","config_text":"{\"fallback\":{\"path\":\"examples/bundle.json\"}}"}' \
	  '{"op":"call","client":"main","method":"get_paywall","params_text":"{\"placement_id\":\"onboarding\"}"}' \
	  '{"op":"set_event_handler","client":"main"}' '{"op":"call_async","client":"main","method":"get_log_level"}' \
	  '{"op":"drain_events","client":"main","count":1,"timeout_ms":2000}' '{"op":"set_event_handler","client":"main","enabled":false}' \
	  '{"op":"poll","client":"main","timeout_ms":0}' '{"op":"client_free","client":"main"}' \
	  | java -XX:ArchiveClassesAtExit=$@ -Xlog:disable -Xlog:all=error:stderr -cp $(JAVA_RUN_CP) dev.paywire.conformance.ConformanceRunner >/dev/null
$(JAVA_DIR)/tests.stamp: $(shell find bindings/java/tests -name '*.java') $(JAVA_DIR)/paywire.jar
	@rm -rf $(JAVA_DIR)/test-classes
	$(JAVAC) -cp $(JAVA_CP) -d $(JAVA_DIR)/test-classes $(filter %.java,$^)
	@touch $@

dotnet: $(DOTNET_DIR)/Paywire.dll $(DOTNET_DIR)/paywire-conformance.exe $(DOTNET_DIR)/paywire-tests.exe
$(DOTNET_DIR)/Paywire.dll: $(wildcard bindings/dotnet/src/*.cs) | deps-dotnet
	@mkdir -p $(DOTNET_DIR)
	$(MCS) -target:library -out:$@ $^
$(DOTNET_DIR)/paywire-conformance.exe: $(wildcard bindings/dotnet/runner/*.cs) $(DOTNET_DIR)/Paywire.dll
	$(MCS) -target:exe -r:$(DOTNET_DIR)/Paywire.dll -out:$@ $(filter %.cs,$^)
$(DOTNET_DIR)/paywire-tests.exe: $(wildcard bindings/dotnet/tests/*.cs) $(DOTNET_DIR)/Paywire.dll
	$(MCS) -target:exe -r:$(DOTNET_DIR)/Paywire.dll -out:$@ $(filter %.cs,$^)

# The bindings' own tests: results, errors, async calls, handlers, 100,000-call ownership, loading.
test-java: java lib
	java -XX:+UseSerialGC -Xmx256m -Dpaywire.root=$(CURDIR) -cp $(JAVA_CP):$(CURDIR)/$(JAVA_DIR)/test-classes dev.paywire.TestMain
test-dotnet: dotnet lib
	PAYWIRE_ROOT=$(CURDIR) mono $(DOTNET_DIR)/paywire-tests.exe

conformance-java: java lib deps
	python3 tests/conformance/driver.py --runner java --jobs 3 --results $(RESULTS)/java.json $(BINDING_VECTORS) -- $(JAVA_RUNNER)
conformance-dotnet: dotnet lib deps
	python3 tests/conformance/driver.py --runner dotnet --jobs 2 --results $(RESULTS)/dotnet.json $(BINDING_VECTORS) \
	  -- mono $(DOTNET_DIR)/paywire-conformance.exe

# Every runner of this run against every vector file, from the result files the driver wrote.
conformance-matrix: conformance corpus
	python3 tests/conformance/matrix.py $(RESULTS) c python java dotnet c-valgrind
# ---- end of JVM and .NET bindings ------------------------------------------------------------

bench: $(BINDIR)/paywire-bench devserver
	$(BINDIR)/paywire-bench
	@# >>> devserver: events acknowledged per second against SQLite inserting the same rows directly
	@echo
	python3 bench/devserver_events.py $(BINDIR)/paywire-devserver examples/bundle.json
	@# <<< devserver

# >>> devserver
# A/B bucketing at scale: 100,000 profile ids through the Python binding against an independent
# MD5 (hashlib) and the rule; shares within statistical bounds of the weights.
test-ab: lib deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python python3 -m pytest -q tests/ab
# <<< devserver

clean:
	rm -rf $(BUILD) .build .build-tsan .build-nohttp tools/devserver/.build
