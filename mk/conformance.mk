# The conformance kit: the vectors through every runner, under valgrind and AddressSanitizer, and
# the schema's versions against older bindings.

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
