#!/usr/bin/env python3
"""What the release library weighs, by area (make size, make bench).

    size_report.py LIBRARY FLOOR LINE

LIBRARY and FLOOR are the unstripped release libpaywire and the size floor (packaging/floor: one
trivial export, the static Swift runtime, the same flags). Prints their stripped sizes and the
line (LINE bytes, stripped), then where the bytes are, from the symbol table and the section
headers (what bloaty would read, with binutils alone):

- by area: the bytes of the library's symbols, each given to the Swift runtime and standard
  library (what the floor holds too, and what Paywire's use pulls in beyond it), to each Paywire
  target (the first Paywire module a Swift symbol's mangled name names: a generic specialization
  of the standard library for a Paywire type counts as that target's), or to C (CCurl's loader);
- by section: what each allocated section adds to the floor's, symbols or not (unwind tables,
  relocations, Swift metadata have none).

Exits 1 when the stripped library is above LINE.
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


def area(name, in_floor):
    positions = [(name.find(mangled), label) for mangled, label in TARGETS if mangled in name]
    if positions and name.startswith(("$s", "_$s")):
        return min(positions)[1]
    if in_floor:
        return "Swift runtime and stdlib, as in the floor"
    if name.startswith(("$s", "_$s", "swift_", "_swift", "_ZN5swift", "_ZNK5swift")):
        return "Swift runtime and stdlib pulled in beyond the floor"
    if name.startswith(("paywire_", "pw_")):
        return "C boundary symbols (paywire_*, C shims)"
    return "C and other (CCurl's loader, libc glue)"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    library, floor, line = sys.argv[1], sys.argv[2], int(sys.argv[3])
    size, floor_size = stripped_size(library), stripped_size(floor)
    over = size - floor_size
    print(f"size (stripped): libpaywire {size:,} bytes; floor {floor_size:,} (the static Swift runtime); "
          f"over the floor {over:,} ({over / MB:.3f} MB)")
    print(f"line: {line:,} bytes stripped: {'ok' if size <= line else 'ABOVE'} ({line - size:+,} bytes)")

    floor_symbols = symbols(floor)
    by_area = collections.Counter()
    for name, bytes_ in symbols(library).items():
        by_area[area(name, name in floor_symbols)] += bytes_
    print("\nby area (symbol bytes, unstripped library):")
    for label, bytes_ in by_area.most_common():
        print(f"  {label:<52} {bytes_:>10,}")

    mine, theirs = sections(library), sections(floor)
    print("\nby section, what the library adds to the floor's (symbols or not):")
    added = sorted(((mine.get(name, 0) - theirs.get(name, 0), name) for name in set(mine) | set(theirs)), reverse=True)
    for delta, name in added:
        if abs(delta) >= 1024:
            print(f"  {name:<32} {mine.get(name, 0):>10,}  floor {theirs.get(name, 0):>10,}  {delta:>+10,}")
    return 0 if size <= line else 1


if __name__ == "__main__":
    sys.exit(main())
