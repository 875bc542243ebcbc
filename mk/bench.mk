# Speed and weight against baselines of the same run: make bench, the instruction counts, the
# load cost, the purchase's hops.

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

# How far a purchase tap travels (files crossed, entries into Client.swift) until the backend's
# answer verifies the access, measured with a coverage build: see bench/purchase_hops.py.
hops:
	swift build --scratch-path .build-cov -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping --product paywire
	PATH=$(SWIFT_BIN):$$PATH python3 bench/purchase_hops.py .build-cov/debug/libpaywire.so
