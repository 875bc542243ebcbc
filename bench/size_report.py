#!/usr/bin/env python3
"""What the shipped library weighs, and where (make size, make bench).

    size_report.py LIBRARY LINE

LIBRARY is the unstripped Embedded libpaywire (make lib). Prints its stripped size against LINE
(SIZE_LINE, the size last measured, held by check-size) and against issue 57's line and goal,
then where the bytes are, from the symbol table and the section headers (what bloaty would read,
with binutils alone):

- by area: the bytes of the library's symbols, each given to a Paywire target (the first Paywire
  module a Swift symbol's mangled name names: a generic specialization of the standard library
  for a Paywire type counts as that target's), to the Embedded standard library and runtime
  compiled into the library, to the Unicode tables, or to C (the loaders, the shims);
- by section: every allocated section (unwind tables, relocations, metadata have no symbols).

Exits 1 when the stripped library is above LINE. There is no floor to subtract: the Embedded
library carries no Swift runtime of its own beyond what it uses.
"""
import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Mangled module names, longest first so that "7Paywire" does not claim "11PaywireCore".
TARGETS = [("11PaywireWire", "PaywireWire (JSON, envelopes, events)"),
           ("12PaywireModel", "PaywireModel (shared rules and types)"),
           ("11PaywireCore", "PaywireCore (the parts of a client)"),
           ("7Paywire", "Paywire (the C boundary and adapters)")]
MB = 1_000_000


def stripped_size(library):
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "stripped.so"
        subprocess.run(["strip", "-o", str(out), library], check=True)
        return out.stat().st_size


def symbols(library):
    """name -> size of every sized symbol in .symtab (local ones too)."""
    listing = subprocess.run(["nm", "-S", "--defined-only", library], check=True, capture_output=True, text=True).stdout
    sizes = {}
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4:
            sizes[parts[3]] = int(parts[1], 16)
    return sizes


def sections(library):
    """name -> size of each allocated section."""
    listing = subprocess.run(["readelf", "-SW", library], check=True, capture_output=True, text=True).stdout
    sizes = {}
    for match in re.finditer(r"^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*A\S*)\s", listing, re.M):
        sizes[match.group(1)] = int(match.group(2), 16)
    return sizes


# Issue 57's line for the stripped library, and its goal.
ISSUE_LINE, ISSUE_GOAL = 2_000_000, 1_500_000


def area(name):
    positions = [(name.find(mangled), label) for mangled, label in TARGETS if mangled in name]
    if positions and name.startswith(("$e", "$s", "_$s")):
        return min(positions)[1]
    if "_swift_stdlib_" in name:
        return "Unicode data tables (libswiftUnicodeDataTables)"
    if name.startswith(("$e", "$s", "_$s")):
        return "Swift standard library, specialized into the library"
    if name.startswith(("swift_", "_swift")):
        return "Embedded runtime (allocation, retain and release, once)"
    if name.startswith(("paywire_", "pw_")):
        return "C boundary symbols (paywire_*, C shims)"
    return "C and other (the loaders, libc glue)"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    library, line = sys.argv[1], int(sys.argv[2])
    size = stripped_size(library)
    print(f"size (stripped): libpaywire {size:,} bytes ({size / MB:.3f} MB)")
    print(f"line: {line:,} bytes stripped: {'ok' if size <= line else 'ABOVE'} ({line - size:+,} bytes)")
    print(f"issue 57: line {ISSUE_LINE:,} ({ISSUE_LINE - size:+,} bytes), goal {ISSUE_GOAL:,} ({ISSUE_GOAL - size:+,} bytes)")

    by_area = collections.Counter()
    for name, bytes_ in symbols(library).items():
        by_area[area(name)] += bytes_
    print("\nby area (symbol bytes, unstripped library):")
    for label, bytes_ in by_area.most_common():
        print(f"  {label:<56} {bytes_:>10,}")

    print("\nby section (allocated, symbols or not):")
    for name, bytes_ in sorted(sections(library).items(), key=lambda item: -item[1]):
        if bytes_ >= 1024:
            print(f"  {name:<32} {bytes_:>10,}")
    return 0 if size <= line else 1


if __name__ == "__main__":
    sys.exit(main())
