#!/usr/bin/env python3
"""Fails when schema/paywire.schema.json's version does not say what changed since the release.

    check.py                    against the last release schema/released.json names (git show COMMIT:...)
    check.py --old FILE         against another schema file (FILE's version, or --old-version)

Prints every difference, classified (classify.py says what MINOR and MAJOR are), then the
verdict. The release's schema comes from the commit schema/released.json names; a clone that
lacks it (a shallow one) fails, saying so, rather than passing unchecked.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import classify  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = "schema/paywire.schema.json"
RELEASED = "schema/released.json"


def released_schema(root: Path):
    """(the last release's parsed schema, its MAJOR.MINOR text, a name for it)."""
    release = json.loads((root / RELEASED).read_text())["releases"][-1]
    commit = release["commit"]
    shown = subprocess.run(["git", "-C", str(root), "show", f"{commit}:{SCHEMA}"], capture_output=True, text=True)
    if shown.returncode != 0:
        sys.exit(f"schemaver: the release's commit {commit} ({RELEASED}) is not in this clone: "
                 f"{shown.stderr.strip()} (fetch it: git fetch --unshallow)")
    old = json.loads(shown.stdout)
    stated = old.get(classify.VERSION_KEY, release["schema_version"])
    if stated != release["schema_version"]:
        sys.exit(f"schemaver: {RELEASED} says the release's schema is {release['schema_version']}, "
                 f"its schema says {stated}")
    return old, stated, f"release {release['release']} ({commit[:12]})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--old", type=Path, help="compare with this schema file instead of the release's")
    parser.add_argument("--old-version", help="the older schema's MAJOR.MINOR when it carries none")
    args = parser.parse_args()
    new = json.loads((args.root / SCHEMA).read_text())
    if args.old:
        old = json.loads(args.old.read_text())
        old_text, name = args.old_version or old.get(classify.VERSION_KEY), str(args.old)
    else:
        old, old_text, name = released_schema(args.root)
    old_version = classify.parse_version(old_text)
    if old_version is None:
        sys.exit(f"schemaver: {name}'s version {old_text!r} is not MAJOR.MINOR")
    found = classify.changes(old, new)
    for change in found:
        print(change)
    new_text = new.get(classify.VERSION_KEY)
    problem = classify.verdict(old_version, classify.parse_version(new_text), found)
    minor = sum(c.kind == classify.MINOR for c in found)
    print(f"schemaver: {len(found)} changes against {name} (schema {old_text}): "
          f"{len(found) - minor} MAJOR, {minor} MINOR; the schema says {new_text}")
    if problem:
        print(f"schemaver: FAILED: {problem}", file=sys.stderr)
        return 1
    print("schemaver: the version says what changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
