# The library's weight: what a host loads, and how much.

# The only NEEDED entries the library may carry: the C library, libm, and SQLite (the outbox's
# store). The Embedded runtime is inside the library: no Swift runtime, no C++ runtime, no
# libgcc_s. libcurl and libcrypto are dlopened on demand; anything else fails check-needed.
NEEDED_ALLOWED := libc.so.6 libm.so.6 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 libsqlite3.so.0
.PHONY: check-needed check-size size

# The release library needs nothing beyond NEEDED_ALLOWED (the list names what is not).
check-needed: lib
	packaging/check_needed.sh $(LIBDIR)/$(LIB_REAL) $(NEEDED_ALLOWED)

# The stripped library within SIZE_LINE, as make dist strips it: make test holds the line, so a
# change that outgrows it fails here and not first in the release build.
# The dynamic relocations within RELOCATION_LINE too (the work and dirty pages of every load).
check-size: lib
	@mkdir -p $(BUILD)/size
	strip -o $(BUILD)/size/$(LIB_REAL) $(LIBDIR)/$(LIB_REAL)
	packaging/check_size.sh $(BUILD)/size/$(LIB_REAL) $(SIZE_LINE)
	packaging/check_relocations.sh $(LIBDIR)/$(LIB_REAL) $(RELOCATION_LINE)

# A host that dlcloses the library while a worker thread lingers: the library stays mapped
# (linked -z nodelete), so the thread ends in code that is still there.
.PHONY: check-unload
check-unload: lib
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O1 -Iinclude tests/unload/unload.c -o $(BINDIR)/paywire-unload -ldl
	$(BINDIR)/paywire-unload $(CURDIR)/$(LIBDIR)/$(LIB_REAL)

# Stripped sizes of the library and of the floor, built with the same flags, and where the bytes
# are by area and by section (bench/size_report.py); fails above SIZE_LINE. make bench prints it.
# SIZE_LINE is the stripped library's budget, held by check-size (make test), make dist and make
# dist-check: the size last measured, so the library does not grow unnoticed. A change that needs
# more raises it to what it measured, saying why in its commit; docs/operations/testing.md keeps
# the line's history. RELOCATION_LINE is the dynamic relocations last measured, rounded up to the
# next ten. Both are the Embedded library's with its unwind tables (issue 57), with issue 56's
# signed documents and the shared contract codecs: 2,108,552 B stripped and 3,142 relocations,
# 3,053 of them relative. Issue 57's 32-bit slice (times, amounts, counts as WideInt, JSON integers
# read as 64 bits and range-checked, clamped arithmetic on input) added 1,928 B: 2,110,480 B
# measured, 3,143 relocations.
SIZE_LINE := 2110480
RELOCATION_LINE := 3150
size: lib
	swift build $(SWIFT_RELEASE) --package-path packaging/floor
	python3 bench/size_report.py $(LIBDIR)/$(LIB_REAL) packaging/floor/.build/release/libpaywirefloor.so $(SIZE_LINE)
