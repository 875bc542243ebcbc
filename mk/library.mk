# The library's neighbours: the full-Swift release flags and build, the C runner, the header,
# exports and install. The shipped library itself is the Embedded link (mk/embedded.mk).

# Release build flags, each for what it saves or keeps (docs/operations/testing.md, "Release build
# flags", gives what each measured and what was tried and left out):
# - -Osize, full LTO, lld --icf=all: smaller code. The few functions every call runs are
#   @_optimize(speed) in the sources, so the call path keeps its speed.
# - -dwarf-version=4: LTO writes DWARF 5 otherwise, whose line tables valgrind 3.19 cannot read.
# - SWIFT_SIZE: value witnesses as layout strings the runtime reads; public symbols internalized at
#   link time (only the version script's paywire_* leave the library) so dead code and unused
#   table entries go; no reflection metadata (nothing in the library prints through reflection);
#   metadata accessor functions instead of mangled names, which a new client would demangle;
#   the SIL inliner inlining less into large callers (factor 6).
SWIFT_SIZE    := -Xswiftc -enable-experimental-feature -Xswiftc LayoutStringValueWitnesses \
                 -Xswiftc -enable-experimental-feature -Xswiftc LayoutStringValueWitnessesInstantiation \
                 $(foreach flag,-enable-layout-string-value-witnesses -enable-layout-string-value-witnesses-instantiation \
                   -internalize-at-link -enable-llvm-vfe -enable-llvm-wme -disable-reflection-metadata -disable-concrete-type-metadata-mangled-name-accessors, \
                   -Xswiftc -Xfrontend -Xswiftc $(flag)) \
                 -Xswiftc -Xfrontend -Xswiftc -sil-inline-caller-benefit-reduction-factor -Xswiftc -Xfrontend -Xswiftc 6
SWIFT_RELEASE := -c release -Xswiftc -static-stdlib -Xswiftc -Osize -Xlinker --icf=all --experimental-lto-mode=full \
                 -Xlinker -mllvm -Xlinker -dwarf-version=4 $(SWIFT_SIZE)
# The full-Swift release library (issue 46's build): Swift runtime linked in, only paywire_*
# exported. `make lib` ships the Embedded library (mk/embedded.mk); this one stays buildable for
# comparison (make lib-full, into build/full): the figures issue 57 measures against. The sanitizer,
# fuzz and coverage builds are SwiftPM debug builds of their own (corpus-asan, stress, fuzz-build).
FULL_DIR := $(BUILD)/full
.PHONY: lib-full
lib-full: $(FULL_DIR)/$(LIB_REAL)
$(FULL_DIR)/$(LIB_REAL): $(SWIFT_SOURCES) $(VERSION_STATED) | deps
	python3 packaging/check_version.py
	swift build $(SWIFT_RELEASE) $(SWIFT_WERROR) --product paywire
	@mkdir -p $(FULL_DIR)
	cp .build/release/libpaywire.so $@.new
	python3 packaging/check_version.py --library $@.new
	mv $@.new $@
	ln -sf $(LIB_REAL) $(FULL_DIR)/$(LIB_SONAME)

harness: $(BINDIR)/paywire-harness
$(BINDIR)/paywire-harness: Sources/paywire-harness/harness.c include/paywire.h $(LIBDIR)/$(LIB_REAL) | deps
	@mkdir -p $(BINDIR)
	$(CC) -std=c99 $(STRICT) -O2 -Iinclude $$(pkg-config --cflags jansson) $< -o $@ \
	  -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' $$(pkg-config --libs jansson) -lpthread

test-swift: deps
	swift test $(SWIFT_WERROR)

# The header compiles cleanly as C99 and as C++.
check-header:
	@mkdir -p $(BUILD)
	printf '#include "paywire.h"\nint main(void) { return paywire_abi_version() == PAYWIRE_ABI_VERSION ? 0 : 1; }\n' > $(BUILD)/header_check.c
	$(CC) -std=c99 $(STRICT) -Iinclude -fsyntax-only $(BUILD)/header_check.c
	$(CXX) -x c++ -std=c++11 $(STRICT) -Iinclude -fsyntax-only $(BUILD)/header_check.c
	@echo "header: C99 and C++ clean"


# The library exports exactly the header's functions, carries its SONAME, and needs no Swift runtime.
check-exports: lib
	packaging/check_exports.sh $(LIBDIR)/$(LIB_REAL) $(ABI) $(LIB_SONAME) include/paywire.h

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
