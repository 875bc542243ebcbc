"""Classifies every difference between two versions of the wire schema, and says which version
the newer one must carry. Pure functions on parsed JSON: no files, no git (check.py does those).

A difference is MINOR when a reader that knows the older schema can still read everything the
newer library writes, and a caller of the older schema is still understood by the newer library:
- a member added to `properties` and not required;
- a value added to an `enum` (a `const` is an `enum` of one value: a `const` that becomes an
  `enum` holding it has values added);
- an entry added to a map of schemas: `$defs`, `$defs/params` (a method), `$defs/results`,
  `$defs/events` (an event), `properties`;
- a variant added at the end of a `oneOf` or `anyOf` (a new kind of result: tolerant readers
  keep it as their unknown case).
Annotations (`description`, `title`, `$comment`, `examples`) change nothing. Everything else is
MAJOR, on purpose conservatively: a member removed or renamed, a member newly required or no
longer required, a value removed, a type, const, pattern or bound changed, a keyword added or
removed. A MAJOR the classifier calls too eagerly costs a review; a MINOR it missed would let a
library break installed bindings.
"""
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional, Tuple

ANNOTATIONS = {"description", "title", "$comment", "examples"}
# Keys whose value maps names to schemas: an added name is an addition, a removed one a removal.
SCHEMA_MAPS = {"$defs", "properties", "patternProperties", "dependentSchemas"}
# Under $defs, these are maps of schemas by method or event name (tools/codegen reads them so).
GROUPS = {"params", "results", "events"}
# The root's own version: what the check compares, not a difference in itself.
VERSION_KEY = "version"

MAJOR, MINOR = "MAJOR", "MINOR"


@dataclass(frozen=True)
class Change:
    kind: str   # MAJOR or MINOR
    path: str   # a JSON pointer into the newer schema (or the older one, for a removal)
    what: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.path}: {self.what}"


def parse_version(text: Any) -> Optional[Tuple[int, int]]:
    """(major, minor) of "MAJOR.MINOR", or None for anything else."""
    if not isinstance(text, str):
        return None
    parts = text.split(".")
    if len(parts) != 2 or not all(p.isdigit() and (p == "0" or not p.startswith("0")) for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def changes(old: Any, new: Any) -> List[Change]:
    """Every difference between the two schemas, classified."""
    return list(_schema(old, new, "", root=True))


def _pointer(path: str, key: Any) -> str:
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


def _schema(old: Any, new: Any, path: str, root: bool = False, group: bool = False) -> Iterator[Change]:
    """The differences of one schema node (or, with group, of a map of schemas by name)."""
    if isinstance(old, dict) and isinstance(new, dict):
        if group:
            yield from _map(old, new, path)
            return
        old, new = _const_as_enum(old, new)
        for key in sorted(set(old) | set(new)):
            if key in ANNOTATIONS or (root and key == VERSION_KEY):
                continue
            here = _pointer(path, key)
            if key not in new:
                yield Change(MAJOR, here, "keyword removed")
            elif key not in old:
                yield Change(MAJOR, here, "keyword added")
            elif key in SCHEMA_MAPS:
                yield from _map(old[key], new[key], here, in_defs=key == "$defs")
            elif key == "enum":
                yield from _enum(old[key], new[key], here)
            elif key == "required":
                yield from _required(old[key], new[key], new.get("properties", {}), old.get("properties", {}), here)
            elif key in ("oneOf", "anyOf"):
                yield from _variants(old[key], new[key], here, appendable=True)
            elif isinstance(old[key], list) and isinstance(new[key], list) and key in ("allOf", "prefixItems"):
                yield from _variants(old[key], new[key], here, appendable=False)
            else:
                yield from _schema(old[key], new[key], here)
        return
    if old != new:
        yield Change(MAJOR, path, f"{_short(old)} became {_short(new)}")


def _const_as_enum(old: dict, new: dict):
    """When one side says `const` and the other `enum`, both as `enum`: `const: 8` is `enum: [8]`,
    so widening it to `enum: [8, 9]` is a value added, and narrowing it back a value removed."""
    if ("const" in old) == ("const" in new) or not ({"const", "enum"} <= set(old) | set(new)):
        return old, new
    def as_enum(schema):
        if "const" not in schema:
            return schema
        widened = {key: value for key, value in schema.items() if key != "const"}
        widened["enum"] = [schema["const"]]
        return widened
    return as_enum(old), as_enum(new)


def _map(old: Any, new: Any, path: str, in_defs: bool = False) -> Iterator[Change]:
    if not (isinstance(old, dict) and isinstance(new, dict)):
        yield from _schema(old, new, path)
        return
    for name in sorted(set(old) | set(new)):
        here = _pointer(path, name)
        if name in ANNOTATIONS and not isinstance(old.get(name, new.get(name)), dict):
            continue  # a group's own description
        if name not in new:
            yield Change(MAJOR, here, "removed")
        elif name not in old:
            yield Change(MINOR, here, "added")
        else:
            yield from _schema(old[name], new[name], here, group=in_defs and name in GROUPS)


def _enum(old: Any, new: Any, path: str) -> Iterator[Change]:
    if not (isinstance(old, list) and isinstance(new, list)):
        yield from _schema(old, new, path)
        return
    for value in old:
        if value not in new:
            yield Change(MAJOR, path, f"value {_short(value)} removed")
    for value in new:
        if value not in old:
            yield Change(MINOR, path, f"value {_short(value)} added")


def _required(old: Any, new: Any, new_props: Any, old_props: Any, path: str) -> Iterator[Change]:
    for name in new:
        if name not in old:
            added = isinstance(new_props, dict) and name in new_props and name not in (old_props or {})
            yield Change(MAJOR, path, f"{name!r} {'added as a required member' if added else 'became required'}")
    for name in old:
        if name not in new:
            yield Change(MAJOR, path, f"{name!r} no longer required (a reader may rely on it)")


def _variants(old: List[Any], new: List[Any], path: str, appendable: bool) -> Iterator[Change]:
    for index, (a, b) in enumerate(zip(old, new)):
        yield from _schema(a, b, _pointer(path, index))
    if len(new) < len(old):
        yield Change(MAJOR, path, f"{len(old) - len(new)} variant(s) removed")
    for index in range(len(old), len(new)):
        yield Change(MINOR if appendable else MAJOR, _pointer(path, index), "variant added")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def expected_version(old_version: Tuple[int, int], found: List[Change]) -> Tuple[int, int]:
    """The version the newer schema must carry after `found` against a release at old_version."""
    major, minor = old_version
    if any(change.kind == MAJOR for change in found):
        return major + 1, 0
    if found:
        return major, minor + 1
    return major, minor


def verdict(old_version: Tuple[int, int], new_version: Optional[Tuple[int, int]], found: List[Change]) -> Optional[str]:
    """None when new_version says what `found` is; else why not."""
    want = expected_version(old_version, found)
    if new_version is None:
        return f"the schema's version is not MAJOR.MINOR; it should be {want[0]}.{want[1]}"
    if new_version == want:
        return None
    kind = MAJOR if any(c.kind == MAJOR for c in found) else (MINOR if found else "no")
    return (f"the schema says {new_version[0]}.{new_version[1]}, but against the release's "
            f"{old_version[0]}.{old_version[1]} it has {kind} changes: it should say {want[0]}.{want[1]}")
