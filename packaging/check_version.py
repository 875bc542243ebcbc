#!/usr/bin/env python3
"""Every place that states Paywire's version agrees with the one source.

    check_version.py                 the sources: header, Swift, Python and Node packages, linker script
    check_version.py --library PATH  also what a built library reports

The library version's source is the file VERSION; the ABI version's source is
PAYWIRE_ABI_VERSION in include/paywire.h (the header defines the ABI). The Makefile reads both,
and feeds paywire.pc, the Debian packages and the file names of the artefacts. Everything that
cannot read them at build time states them again, and is checked here: `make lib` runs this
before and after building the library, so a disagreement fails the build.
"""
import argparse
import ctypes
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read(path):
    return (ROOT / path).read_text(encoding="utf-8")


def found(path, pattern):
    """The first group of `pattern` in the file, or None."""
    match = re.search(pattern, read(path), re.MULTILINE)
    return match.group(1) if match else None


def claims(version, abi):
    """(where, what it says, what it should say) for every place that states a version."""
    major, minor, patch = version.split(".")
    header = "include/paywire.h"
    yield f"{header} PAYWIRE_VERSION", found(header, r'^#define PAYWIRE_VERSION "([^"]*)"'), version
    yield f"{header} PAYWIRE_VERSION_MAJOR", found(header, r"^#define PAYWIRE_VERSION_MAJOR (\d+)"), major
    yield f"{header} PAYWIRE_VERSION_MINOR", found(header, r"^#define PAYWIRE_VERSION_MINOR (\d+)"), minor
    yield f"{header} PAYWIRE_VERSION_PATCH", found(header, r"^#define PAYWIRE_VERSION_PATCH (\d+)"), patch
    swift = "Sources/PaywireCore/Version.swift"
    yield f"{swift} libraryLiteral", found(swift, r'static let libraryLiteral: StaticString = "([^"]*)"'), version
    yield f"{swift} abi", found(swift, r"static let abi: UInt32 = (\d+)"), abi
    exports = "Sources/Paywire/Exports.swift"
    yield (f"{exports} paywire_version()", found(exports, r"paywire_version\(\)[^{]*\{\s*([^}]*?)\s*\}"),
           "CStrings.literal(PaywireVersion.libraryLiteral)")
    python = "bindings/python/paywire/__init__.py"
    yield f"{python} __version__", found(python, r'^__version__ = "([^"]*)"'), version
    native = "bindings/python/paywire/_native.py"
    yield f"{native} ABI_VERSION", found(native, r"^ABI_VERSION = (\d+)"), abi
    node = "bindings/node/package.json"
    yield f"{node} version", found(node, r'^  "version": "([^"]*)"'), version
    pyproject = "bindings/python/pyproject.toml"
    yield (f"{pyproject} version", found(pyproject, r"^version = (.*)$"), '{attr = "paywire.__version__"}')
    yield f"Package.swift SONAME", found("Package.swift", r'"libpaywire\.so\.(\d+)"'), abi
    yield "Sources/Paywire/exports.map version node", found("Sources/Paywire/exports.map", r"^PAYWIRE_(\d+) \{"), abi


def library_claims(path, version, abi):
    """What a built library reports about itself."""
    library = ctypes.CDLL(str(path))
    library.paywire_version.restype = ctypes.c_char_p
    library.paywire_abi_version.restype = ctypes.c_uint32
    yield f"{path} paywire_version()", library.paywire_version().decode(), version
    yield f"{path} paywire_abi_version()", str(library.paywire_abi_version()), abi


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, help="a built libpaywire to ask as well")
    args = parser.parse_args()
    version = read("VERSION").strip()
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        sys.exit(f"VERSION: '{version}' is not MAJOR.MINOR.PATCH")
    abi = found("include/paywire.h", r"^#define PAYWIRE_ABI_VERSION (\d+)")
    if abi is None:
        sys.exit("include/paywire.h: no PAYWIRE_ABI_VERSION")
    places = list(claims(version, abi))
    if args.library:
        places += library_claims(args.library, version, abi)
    wrong = [(where, said, wanted) for where, said, wanted in places if said != wanted]
    for where, said, wanted in wrong:
        print(f"version check: {where} says {said!r}, expected {wanted!r} "
              f"(VERSION {version}, ABI {abi} from include/paywire.h)", file=sys.stderr)
    if wrong:
        sys.exit(1)
    print(f"version check: {len(places)} places agree on {version} (ABI {abi})")


if __name__ == "__main__":
    main()
