# The library in Embedded Swift.

# Every library target compiles in Embedded Swift (issue 57): no runtime metadata, so no weak or
# unowned references, no key paths, no existentials of protocols that are not class-bound, no
# dynamic casts. Each is compiled as a module, in dependency order, with the toolchain's Embedded
# standard library, objects and modules into build/embedded, so they cannot drift from what an
# Embedded library needs. The boundary (Sources/Paywire) sees its C modules (CSQLite, CCurl,
# CCrypto, CPosix) through module maps written here, as SwiftPM writes them for its own build.
# Each function in a section of its own (Swift has no data sections), so the link's --gc-sections
# drops the code the boundary never reaches (make lib).
# `unowned(unsafe)` compiles in Embedded and is refused here by name: ownership is explicit.
# Unwind tables (issue 46: a host's crash reporter unwinds through the library): Embedded Swift
# marks every function nounwind and emits no .eh_frame, and no swiftc option gives it back. So
# swiftc writes each module's optimized LLVM IR (-emit-ir, the same flags), every attribute group
# gains `uwtable` and a frame pointer in every function that calls another ("frame-pointer"=
# "non-leaf"), and the toolchain's clang turns the IR into the object without optimizing it again
# (-disable-llvm-optzns; its -Os otherwise re-optimizes Swift's IR into 1.4% more .text): the same
# code as swiftc's own object, plus .eh_frame (docs/operations/testing.md).
# The frame pointer is for the unwind tables' size, and for hosts' profilers and crash reporters
# that walk frames by it: with the frame address in rbp an FDE says how the frame was set up once,
# where without it every push, pop and stack adjustment needs its own rule. .eh_frame is 130 KB
# with it, against 243 KB, for 1.6 KB more code.
# tests/unwind (stage check-unwind) walks a host's stack through the library's frames.
EMBEDDED_DIR     := $(BUILD)/embedded
EMBEDDED_FLAGS   := -enable-experimental-feature Embedded -wmo -Osize -parse-as-library -package-name paywire \
                    -target x86_64-unknown-linux-gnu -Xfrontend -function-sections
EMBEDDED_MODULES := PaywireWire PaywireModel PaywireCore Paywire
EMBEDDED_C_MODULES := CCurl:ccurl.h CCrypto:ccrypto.h CPosix:cposix.h
EMBEDDED_C_FLAGS := -I Sources/CSQLite $(foreach m,$(EMBEDDED_C_MODULES),\
                    -Xcc -fmodule-map-file=$(EMBEDDED_DIR)/cmodules/$(word 1,$(subst :, ,$(m))).modulemap)
# The objects are rebuilt when a library source or the flags above change, not on every make
# test (a whole-module Embedded build of the four targets takes minutes): the flags are written
# to a file only when they differ from the last build's, and the objects depend on that file.
EMBEDDED_IR_FLAGS := -Os -Xclang -disable-llvm-optzns -fPIC -ffunction-sections -target x86_64-unknown-linux-gnu
# The glibc versions the library binds (the header says why); its .symver lines go into each
# module's IR as module-level assembly, and the C sources include it first.
GLIBC_FLOOR_HEADER := Sources/CEmbedded/glibc_floor.h
EMBEDDED_OBJECTS := $(EMBEDDED_MODULES:%=$(EMBEDDED_DIR)/%.o)
EMBEDDED_STAMP   := $(EMBEDDED_DIR)/objects.stamp
EMBEDDED_FLAGS_FILE := $(EMBEDDED_DIR)/swiftc-flags
$(shell mkdir -p $(EMBEDDED_DIR) && { echo '$(EMBEDDED_FLAGS) $(EMBEDDED_C_FLAGS) | $(EMBEDDED_IR_FLAGS)' | cmp -s - $(EMBEDDED_FLAGS_FILE) || \
  echo '$(EMBEDDED_FLAGS) $(EMBEDDED_C_FLAGS) | $(EMBEDDED_IR_FLAGS)' > $(EMBEDDED_FLAGS_FILE); })
.PHONY: check-embedded
check-embedded: $(EMBEDDED_STAMP)
	@echo "check-embedded: $(EMBEDDED_MODULES) compile in Embedded Swift"
$(EMBEDDED_STAMP): $(SWIFT_SOURCES) $(EMBEDDED_FLAGS_FILE) $(GLIBC_FLOOR_HEADER)
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
	    -emit-module -emit-module-path $(EMBEDDED_DIR)/$$module.swiftmodule -emit-ir -o $(EMBEDDED_DIR)/$$module.ll \
	    $$(find Sources/$$module -name '*.swift' | LC_ALL=C sort) || exit 1; \
	  if grep -q '"frame-pointer"=' $(EMBEDDED_DIR)/$$module.ll; then \
	    echo "embedded: $$module.ll already chooses its frame pointers; the rule below would contradict it"; exit 1; fi; \
	  sed -i -E 's/^(attributes #[0-9]+ = \{)/\1 uwtable "frame-pointer"="non-leaf" /' $(EMBEDDED_DIR)/$$module.ll; \
	  if grep -E '^attributes #[0-9]+ = \{' $(EMBEDDED_DIR)/$$module.ll | grep -qv '= { uwtable "frame-pointer"="non-leaf" '; then \
	    echo "embedded: an attribute group of $$module.ll without uwtable and frame pointer"; exit 1; fi; \
	  sed -n 's/^__asm__("\(\.symver [^"]*\)");$$/module asm "\1"/p' $(GLIBC_FLOOR_HEADER) >> $(EMBEDDED_DIR)/$$module.ll; \
	  $(SWIFT_BIN)clang $(EMBEDDED_IR_FLAGS) -c $(EMBEDDED_DIR)/$$module.ll -o $(EMBEDDED_DIR)/$$module.o || exit 1; \
	done
	@touch $@

# 32-bit clean (issue 57): the wire, the model and the core compile in Embedded Swift for
# wasm32-unknown-none-wasm, where `Int` is 32 bits. A literal above 2^31 typed `Int` fails there,
# and so does any mix of a `WideInt` (times in milliseconds, durations, amounts in minor units,
# counts, sizes: 64 bits on every target, Sources/PaywireWire/WideInt.swift) with a plain `Int`,
# which type-checks on 64-bit targets only. Objects only, into build/wasm32; the boundary
# (POSIX, threads, curl, SQLite) is not part of it. Rebuilt when those sources change.
WASM32_DIR     := $(BUILD)/wasm32
WASM32_FLAGS   := -enable-experimental-feature Embedded -wmo -Osize -parse-as-library -package-name paywire \
                  -target wasm32-unknown-none-wasm
WASM32_MODULES := PaywireWire PaywireModel PaywireCore
WASM32_STAMP   := $(WASM32_DIR)/objects.stamp
.PHONY: check-wasm32
check-wasm32: $(WASM32_STAMP)
	@echo "check-wasm32: $(WASM32_MODULES) compile in Embedded Swift for wasm32 (32-bit Int)"
$(WASM32_STAMP): $(shell find $(WASM32_MODULES:%=Sources/%) -name '*.swift') mk/embedded.mk
	@mkdir -p $(WASM32_DIR)
	@for module in $(WASM32_MODULES); do \
	  echo "wasm32: $$module"; \
	  swiftc $(WASM32_FLAGS) -module-name $$module -I $(WASM32_DIR) \
	    -emit-module -emit-module-path $(WASM32_DIR)/$$module.swiftmodule -emit-object -o $(WASM32_DIR)/$$module.o \
	    $$(find Sources/$$module -name '*.swift' | LC_ALL=C sort) || exit 1; \
	done
	@touch $@

# The library: libpaywire.so from the Embedded objects (issue 57). `make lib` is this link.
# The four Embedded objects above, linked with lld into build/lib/libpaywire.so.$(ABI).0.0.
# The Embedded runtime (allocation, retain and release, swift_once) is emitted into the objects
# themselves as weak definitions, so the link needs no Swift runtime library; beyond libc, libm
# and SQLite it takes:
# - the toolchain's libswiftUnicodeDataTables.a: String's Unicode tables (normalization, grapheme
#   breaks, case mapping), which full Swift keeps inside libswiftCore;
# - Sources/CEmbedded: _swift_stdlib_strtod_clocale for Double(String), and arc4random_buf over
#   getrandom (glibc has it only from 2.36), both hidden;
# - the C modules' own code: the libcurl and libcrypto loaders, and CPosix.
# - libpthread.so.0 and libdl.so.2 by name: empty on glibc 2.34 and later, where libc holds their
#   functions, but where the versions the library binds live before 2.34 (glibc_floor.h).
# Only paywire_* exported (Sources/Paywire/exports.map), the SONAME, -z nodelete (worker threads
# outlive the last client by their linger), -z defs (every symbol resolved now, not at a host's
# load time), and 16 KB pages (Android 15's requirement for native libraries; on 4 KB-page hosts
# it costs only address space). The version check runs on the sources first and on the built
# library before it takes its place. The full-Swift build is `make lib-full` (mk/library.mk).
EMBEDDED_LIB      := $(LIBDIR)/$(LIB_REAL)
EMBEDDED_UNICODE  := $(SWIFT_BIN)../lib/swift/embedded/x86_64-unknown-linux-gnu/libswiftUnicodeDataTables.a
EMBEDDED_C_SOURCES := Sources/CEmbedded/embedded_support.c Sources/CCurl/curl_loader.c \
                      Sources/CCrypto/crypto_loader.c Sources/CPosix/posix.c
EMBEDDED_C_OBJECTS := $(EMBEDDED_C_SOURCES:Sources/%.c=$(EMBEDDED_DIR)/c/%.o)
EMBEDDED_CFLAGS   := -std=gnu11 $(STRICT) -Os -fPIC -ffunction-sections -fdata-sections \
                     -fvisibility=hidden -target x86_64-unknown-linux-gnu -include $(GLIBC_FLOOR_HEADER)
EMBEDDED_LDFLAGS  := -shared -fuse-ld=lld -Wl,--gc-sections -Wl,--icf=all -Wl,-z,max-page-size=16384 \
                     -Wl,--version-script=Sources/Paywire/exports.map -Wl,-soname,$(LIB_SONAME) \
                     -Wl,-z,nodelete -Wl,-z,defs
lib: $(EMBEDDED_LIB)
$(EMBEDDED_DIR)/c/%.o: Sources/%.c $(wildcard Sources/C*/include/*.h) $(GLIBC_FLOOR_HEADER) | deps
	@mkdir -p $(dir $@)
	$(SWIFT_BIN)clang $(EMBEDDED_CFLAGS) -I Sources/$(firstword $(subst /, ,$*))/include -c $< -o $@
$(EMBEDDED_LIB): $(EMBEDDED_STAMP) $(EMBEDDED_C_OBJECTS) Sources/Paywire/exports.map $(VERSION_STATED) | deps
	python3 packaging/check_version.py
	@mkdir -p $(LIBDIR)
	$(SWIFT_BIN)clang $(EMBEDDED_LDFLAGS) -o $@.new $(EMBEDDED_OBJECTS) $(EMBEDDED_C_OBJECTS) $(EMBEDDED_UNICODE) -lsqlite3 -lm -l:libpthread.so.0 -l:libdl.so.2
	python3 packaging/check_version.py --library $@.new
	mv $@.new $@
	ln -sf $(LIB_REAL) $(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(LIBDIR)/libpaywire.so

# A host's crash reporter unwinds through the library (issue 46 keeps unwind tables):
# tests/unwind walks the host's stack with _Unwind_Backtrace from inside its event handler and
# its user_data_free, and fails unless each walk crosses the library's frames (into libc's
# thread start, into main).
.PHONY: check-unwind
check-unwind: lib
	@mkdir -p $(BINDIR)
	$(CC) -std=gnu99 $(STRICT) -O1 -Iinclude tests/unwind/unwind.c -o $(BINDIR)/paywire-unwind \
	  -rdynamic -L$(LIBDIR) -lpaywire -Wl,-rpath,'$$ORIGIN/../lib' -lgcc_s -ldl -lpthread
	$(BINDIR)/paywire-unwind
