# The library in Embedded Swift.

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
