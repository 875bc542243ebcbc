# The library in Embedded Swift.

# Every library target compiles in Embedded Swift (issue 57): no runtime metadata, so no weak or
# unowned references, no key paths, no existentials of protocols that are not class-bound, no
# dynamic casts. Each is compiled as a module, in dependency order, with the toolchain's Embedded
# standard library, objects and modules into build/embedded, so they cannot drift from what an
# Embedded library needs. The boundary (Sources/Paywire) sees its C modules (CSQLite, CCurl,
# CCrypto, CPosix) through module maps written here, as SwiftPM writes them for its own build.
# Each function in a section of its own (Swift has no data sections), so the link's --gc-sections
# drops the code the boundary never reaches (make embedded-lib).
# `unowned(unsafe)` compiles in Embedded and is refused here by name: ownership is explicit.
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
EMBEDDED_OBJECTS := $(EMBEDDED_MODULES:%=$(EMBEDDED_DIR)/%.o)
EMBEDDED_STAMP   := $(EMBEDDED_DIR)/objects.stamp
EMBEDDED_FLAGS_FILE := $(EMBEDDED_DIR)/swiftc-flags
$(shell mkdir -p $(EMBEDDED_DIR) && { echo '$(EMBEDDED_FLAGS) $(EMBEDDED_C_FLAGS)' | cmp -s - $(EMBEDDED_FLAGS_FILE) || \
  echo '$(EMBEDDED_FLAGS) $(EMBEDDED_C_FLAGS)' > $(EMBEDDED_FLAGS_FILE); })
.PHONY: check-embedded
check-embedded: $(EMBEDDED_STAMP)
	@echo "check-embedded: $(EMBEDDED_MODULES) compile in Embedded Swift"
$(EMBEDDED_STAMP): $(SWIFT_SOURCES) $(EMBEDDED_FLAGS_FILE)
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
	@touch $@
