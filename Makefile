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

# Each area's targets live in mk/<area>.mk, read in this order (a later file may use an earlier
# one's variables in its prerequisites).
include mk/deps.mk
include mk/library.mk
include mk/embedded.mk
include mk/server.mk
include mk/bench.mk
include mk/demo.mk
include mk/conformance.mk
include mk/integration.mk
include mk/python.mk
include mk/reliability.mk
include mk/bindings.mk
include mk/web.mk
include mk/weight.mk
include mk/dist.mk
include mk/docs.mk

# The stages and what each needs are listed once, in tests/stages.py: two run at a time, each
# is timed, and the times are printed at the end. `make test-full` adds what is slow and rarely
# changes its verdict (every vector under valgrind, the ThreadSanitizer stress, the soak, the
# fuzzers); CI runs it.
test:
	python3 tests/stages.py test
test-full:
	python3 tests/stages.py test-full

# The workshop's tools are tested like the rest: make test-one's placing of a file in its suite,
# the date sweep's report of a failure, make demo's closing verdict.
.PHONY: test-workshop
test-workshop: deps harness
	python3 -m pytest -q tests/workshop

# One test file of any suite, with what its stage would give it (tests/one.py): a unit test file
# (tests/unit/<Module>/ or server/Tests/<Target>/), a pytest file (ENGINE=postgres for the second
# engine) or a vector file. ARGS go to the suite's own command (pytest's -k, the driver's --case).
.PHONY: test-one
test-one:
	@test -n "$(FILE)" || { echo "make test-one FILE=PATH [ENGINE=sqlite|postgres] [ARGS='...']"; exit 2; }
	python3 tests/one.py $(FILE) --engine $(or $(ENGINE),sqlite) -- $(ARGS)

clean:
	rm -rf $(BUILD) .build .build-tsan server/.build $(DIST) bindings/node/build bindings/swift/.build
