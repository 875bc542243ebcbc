# The other bindings: JVM and .NET, the typed layer generated from the schema, Node, Swift.

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
