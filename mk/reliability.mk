# Reliability: the ThreadSanitizer stress, fuzzing, storage ownership and failures,
# backpressure, the soak.

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
