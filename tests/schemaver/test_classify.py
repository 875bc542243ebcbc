"""tools/schemaver: each kind of schema change is classified, and a version that does not say
what changed fails, on the real schema as well as on small ones."""
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools/schemaver"))

import classify  # noqa: E402

SCHEMA = json.loads((ROOT / "schema/paywire.schema.json").read_text())


def kinds(old, new):
    return sorted({change.kind for change in classify.changes(old, new)})


def edited(edit):
    new = copy.deepcopy(SCHEMA)
    edit(new)
    return new


def results(schema, method):
    return schema["$defs"]["results"][method]


def test_the_same_schema_has_no_changes():
    assert classify.changes(SCHEMA, copy.deepcopy(SCHEMA)) == []


def test_a_description_changes_nothing():
    new = edited(lambda s: results(s, "get_sdk_version").update(description="said another way"))
    assert classify.changes(SCHEMA, new) == []


def test_an_optional_member_is_minor():
    new = edited(lambda s: results(s, "get_sdk_version")["properties"].update(build={"type": "string"}))
    assert kinds(SCHEMA, new) == ["MINOR"]


def test_a_required_member_added_is_major():
    def edit(s):
        results(s, "get_sdk_version")["properties"]["build"] = {"type": "string"}
        results(s, "get_sdk_version")["required"].append("build")
    changes = classify.changes(SCHEMA, edited(edit))
    assert "MAJOR" in {c.kind for c in changes}
    assert any("added as a required member" in c.what for c in changes)


def test_an_enum_value_added_is_minor_and_removed_is_major():
    added = edited(lambda s: s["$defs"]["error_code"]["enum"].append("from_the_future"))
    assert kinds(SCHEMA, added) == ["MINOR"]
    removed = edited(lambda s: s["$defs"]["error_code"]["enum"].remove("busy"))
    assert kinds(SCHEMA, removed) == ["MAJOR"]


def test_a_const_widened_to_an_enum_holding_it_is_minor_and_narrowed_back_is_major():
    def const(value):
        return lambda s: results(s, "get_sdk_version")["properties"].update(kind={"const": value})
    def enum(values):
        return lambda s: results(s, "get_sdk_version")["properties"].update(kind={"enum": values})
    assert kinds(edited(const(8)), edited(enum([8, 9]))) == ["MINOR"]
    assert kinds(edited(enum([8, 9])), edited(const(8))) == ["MAJOR"]
    assert "MAJOR" in kinds(edited(const(8)), edited(enum([9])))   # 8 removed (and 9 added)
    assert kinds(edited(const(8)), edited(const(9))) == ["MAJOR"]


def test_an_event_or_method_added_is_minor_and_removed_is_major():
    event = edited(lambda s: s["$defs"]["events"].update(future_event={"type": "object"}))
    assert kinds(SCHEMA, event) == ["MINOR"]
    method = edited(lambda s: s["$defs"]["params"].pop("get_sdk_version"))
    assert kinds(SCHEMA, method) == ["MAJOR"]


def test_a_type_or_bound_changed_is_major():
    retyped = edited(lambda s: results(s, "get_sdk_version")["properties"]["abi_version"].update(type="string"))
    assert kinds(SCHEMA, retyped) == ["MAJOR"]
    bounded = edited(lambda s: results(s, "get_sdk_version")["properties"]["version"].update(minLength=1))
    assert kinds(SCHEMA, bounded) == ["MAJOR"]


def test_a_member_no_longer_required_is_major():
    new = edited(lambda s: results(s, "get_sdk_version")["required"].remove("wire_version"))
    assert kinds(SCHEMA, new) == ["MAJOR"]


@pytest.mark.parametrize("found, new, ok", [
    ([], (1, 1), True),
    ([], (1, 2), False),                                   # a bump with nothing to show for it
    ([classify.Change("MINOR", "/x", "added")], (1, 2), True),
    ([classify.Change("MINOR", "/x", "added")], (1, 1), False),  # additive, version not raised
    ([classify.Change("MINOR", "/x", "added")], (2, 0), False),  # additive called breaking
    ([classify.Change("MAJOR", "/x", "removed")], (1, 2), False),  # breaking called additive
    ([classify.Change("MAJOR", "/x", "removed")], (2, 0), True),
    ([classify.Change("MAJOR", "/x", "removed")], None, False),
])
def test_the_version_must_say_what_changed(found, new, ok):
    assert (classify.verdict((1, 1), new, found) is None) == ok


@pytest.mark.parametrize("text, parsed", [("1.0", (1, 0)), ("12.34", (12, 34)), ("1", None), ("1.0.0", None),
                                          ("01.2", None), ("a.b", None), (1.0, None)])
def test_versions_are_major_dot_minor(text, parsed):
    assert classify.parse_version(text) == parsed


def check(tmp_path, old, new):
    (tmp_path / "schema").mkdir(exist_ok=True)
    (tmp_path / "schema/paywire.schema.json").write_text(json.dumps(new))
    (tmp_path / "old.json").write_text(json.dumps(old))
    return subprocess.run([sys.executable, str(ROOT / "tools/schemaver/check.py"), "--root", str(tmp_path),
                           "--old", str(tmp_path / "old.json")], capture_output=True, text=True)


#: Today's schema version, and the versions a MINOR and a MAJOR change to it must say.
MAJOR, MINOR = classify.parse_version(SCHEMA["version"])
NEXT_MINOR, NEXT_MAJOR = f"{MAJOR}.{MINOR + 1}", f"{MAJOR + 1}.0"


def test_the_check_fails_a_required_member_under_a_minor_bump(tmp_path):
    def edit(s):
        results(s, "get_sdk_version")["properties"]["build"] = {"type": "string"}
        results(s, "get_sdk_version")["required"].append("build")
        s["version"] = NEXT_MINOR
    run = check(tmp_path, SCHEMA, edited(edit))
    assert run.returncode == 1
    assert f"it should say {NEXT_MAJOR}" in run.stderr
    assert "added as a required member" in run.stdout


def test_the_check_passes_an_optional_member_under_a_minor_bump(tmp_path):
    def edit(s):
        results(s, "get_sdk_version")["properties"]["build"] = {"type": "string"}
        s["version"] = NEXT_MINOR
    run = check(tmp_path, SCHEMA, edited(edit))
    assert run.returncode == 0, run.stdout + run.stderr
