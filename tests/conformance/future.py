#!/usr/bin/env python3
"""Vectors from the future: what a newer library of the same schema MAJOR may write, derived from
the kit's vectors, for every binding runner's typed layer to read as an older binding would.

    future.py OUT_DIR     writes OUT_DIR/future.json (one case per vector file and kind)

The values are the exact results and events of the vectors (roundtrip_cases.py picks them: no
placeholders, no subset matches), each changed in one of four ways a MINOR version allows:
- member:  every object the schema makes a class gains a member it does not name;
- value:   every string the schema gives as an enum becomes a value it does not list;
- variant: every tagged union's tag (a purchase result's `type`) names a kind it does not list;
- event:   an event the schema does not name, beside the file's known ones.
Each step is the runner op `decode` ({kind: result|event, method, json_text}): the runner reads
the JSON into its typed models and writes them back; the answer's `decoded_text` must be the JSON
it was given (nothing dropped, nothing refused), and an event's `event_type` says whether the
binding read it as one of its own events (`known`) or as its unknown event (`unknown`).
"""
import copy
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tools/codegen"))

import roundtrip_cases  # noqa: E402
import schema_ir  # noqa: E402

FUTURE_MEMBER = "x_future_member"
FUTURE_MEMBER_VALUE = {"added_in": "a newer MINOR", "values": [1, 2.5, "three", None, True]}
FUTURE_VALUE = "x_future_value"
FUTURE_KIND = "x_future_kind"
FUTURE_EVENT = "x_future_event"
KINDS = ("member", "value", "variant", "event")


class Future:
    """Changes a value the way a newer library could, following the schema's types (schema_ir)."""

    def __init__(self, model, kind):
        self.model, self.kind, self.changed = model, kind, 0

    def walk(self, t, value):
        kind = t[0]
        if kind == "opt":
            return value if value is None else self.walk(t[1], value)
        if kind == "list" and isinstance(value, list):
            return [self.walk(t[1], item) for item in value]
        if kind == "map" and isinstance(value, dict):
            return {key: self.walk(t[1], item) for key, item in value.items()}
        if kind == "class" and isinstance(value, dict):
            return self.object(self.model.classes[t[1]], value)
        if kind == "tagged" and isinstance(value, dict):
            return self.tagged(self.model.unions[t[1]], value)
        if kind in ("lit", "alias") and self.kind == "value" and isinstance(value, str):
            values = t[1] if kind == "lit" else t[2][1]
            if len(values) > 1 and all(isinstance(v, str) for v in values):
                self.changed += 1
                return FUTURE_VALUE
        return value

    def object(self, cls, value):
        out = dict(value)
        for field in cls.fields:
            if field.name in out:
                out[field.name] = self.walk(field.type, out[field.name])
        if self.kind == "member":
            self.changed += 1
            out[FUTURE_MEMBER] = copy.deepcopy(FUTURE_MEMBER_VALUE)
        return out

    def tagged(self, union, value):
        if self.kind == "variant":
            self.changed += 1
            return dict(value, **{union.tag: FUTURE_KIND})
        tag = value.get(union.tag)
        for values, cls in union.variants:
            if tag in values:
                return self.object(self.model.classes[cls], value)
        return value

    def event(self, value):
        cls = self.model.events.get(value.get("event"))
        return value if cls is None else self.object(self.model.classes[cls], value)


def decode_step(kind, method, value, event_type=None):
    op = {"op": "decode", "kind": kind, "json_text": json.dumps(value, ensure_ascii=False)}
    if method:
        op["method"] = method
    expect = {"decoded": value}
    if event_type:
        expect["event_type"] = event_type
    return {"op": op, "expect": expect}


def cases():
    schema = json.loads((ROOT / "schema/paywire.schema.json").read_text())
    model = schema_ir.build(schema)
    selected = roundtrip_cases.select()["cases"]
    files = {}
    for place in selected:
        if place["kind"] in ("result", "event"):
            files.setdefault(place["file"], []).append(place)
    out = []
    for name, places in sorted(files.items()):
        document = json.loads((ROOT / "tests/conformance/vectors" / name).read_text())
        by_id = {case["id"]: case for case in document["cases"]}
        for kind in KINDS:
            steps, seq = [], 1
            for place in places:
                step = by_id[place["case"]]["steps"][place["step"]]
                future = Future(model, kind)
                if place["kind"] == "result" and kind != "event":
                    value = future.walk(model.results[step["call"]], step["expect"]["success"])
                    if future.changed:
                        steps.append(decode_step("result", step["call"], value))
                elif place["kind"] == "event":
                    known = step["events"][place["event"]]
                    seq = max(seq, known.get("seq", 0) if isinstance(known.get("seq"), int) else 0)
                    if not place.get("exact"):
                        continue  # a subset match may leave out members the event's model requires
                    value = future.event(dict(known, seq=known.get("seq", seq)))
                    if kind != "event" and future.changed:
                        steps.append(decode_step("event", None, value, "known"))
            if kind == "event" and places:
                added = {"event": FUTURE_EVENT, "seq": seq + 1, FUTURE_MEMBER: copy.deepcopy(FUTURE_MEMBER_VALUE)}
                steps.append(decode_step("event", None, added, "unknown"))
            if steps:
                out.append({"id": f"future.{kind}.{Path(name).stem}",
                            "description": f"What a newer library could write in {name}'s results and events "
                                           f"({kind}), read by the binding's typed layer and written back whole.",
                            "steps": steps})
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    found = cases()
    (target / "future.json").write_text(json.dumps({"suite": "future", "cases": found}, indent=1, ensure_ascii=False) + "\n")
    steps = sum(len(case["steps"]) for case in found)
    print(f"future vectors: {len(found)} cases, {steps} values in {target / 'future.json'}")


if __name__ == "__main__":
    main()
