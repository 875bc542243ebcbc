"""Prints the model of schema_ir.py for the Node.js binding: bindings/node/lib/generated/models.d.ts,
the TypeScript interfaces of every params, result and event model (the event union told apart by
`event`), and the tables methods.js uses to make the schema's numbers exact (ts_methods.py).

Interfaces, not classes: the binding's results are the parsed JSON objects themselves (lib/json.js
parses numbers with a fraction as Decimal), so a declaration over them costs nothing at run time
and a decoded result encodes back to the library's text. What an interface cannot do, turn an
integer the schema calls `number` (a price of 149) into a Decimal, methods.js does with the
NUMBERS table printed here: where a schema number may sit, by class and member.
"""
import json
import re
from typing import Dict, List, Optional

import marker
from schema_ir import Class, Model

# The binding's generated files, apart from its hand-written lib/ (index.d.ts re-exports them).
DIR = "bindings/node/lib/generated"
HEADER = marker.header("//")
IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")


def doc(text: str, indent: str) -> List[str]:
    text = " ".join(text.split()).replace("*/", "*\\/")
    return [f"{indent}/** {text} */"] if text else []


def ts_type(t: tuple, given: bool = False) -> str:
    """The TypeScript type of `t`. `given`: a value the caller writes (params), where a schema
    number may be a plain number too; what the library returns has every such number a Decimal."""
    kind = t[0]
    if kind == "prim":
        return {"str": "string", "int": "number", "bool": "boolean", "null": "null", "any": "JsonValue",
                "object": "JsonObject", "number": "Decimal | number" if given else "Decimal"}[t[1]]
    if kind == "lit":
        return " | ".join(json.dumps(v) for v in t[1])
    if kind in ("alias", "class", "tagged"):
        return t[1]
    if kind == "list":
        inner = ts_type(t[1], given)
        return f"Array<{inner}>" if "|" in inner else f"{inner}[]"
    if kind == "map":
        return f"{{ [key: string]: {ts_type(t[1], given)} }}"
    if kind == "opt":
        return f"{ts_type(t[1], given)} | null"
    parts: List[str] = []
    for p in t[1]:
        for part in ts_type(p, given).split(" | "):
            if part not in parts:
                parts.append(part)
    return " | ".join(parts)


def _member(name: str) -> str:
    return name if IDENTIFIER.match(name) else json.dumps(name)


def emit_class(c: Class, given: bool) -> List[str]:
    out = [""] + doc(c.doc or (f"The `{c.event}` event." if c.event else ""), "")
    out.append(f"export interface {c.name} {{")
    if c.event:
        out += [f"  event: {json.dumps(c.event)};", "  /** The event's place in the client's one sequence, from 1. */",
                "  seq: number;"]
    for f in c.fields:
        out += doc(f.doc, "  ")
        # A free JSON object the caller writes takes any model too (a Product to makePurchase): an
        # interface has no index signature, so JsonObject alone would refuse it.
        typ = "JsonObject | object" if f.takes_model else ts_type(f.type, given)
        out.append(f"  {_member(f.name)}{'' if f.required else '?'}: {typ};")
    out.append("}")
    return out


def models_d_ts(model: Model, schema_id: str, sha256: str) -> str:
    given = set(model.params.values())
    out = [HEADER.format(schema_id=schema_id).rstrip("\n"),
           "// The wire models of the Paywire Node.js binding: what each method takes and returns and what",
           "// each event carries. Numbers the schema calls `number` (prices) are Decimal in what the",
           "// library returns; params take a Decimal or a plain number.",
           "import type { Decimal, JsonObject, JsonValue } from '../../index';", "",
           "/** sha256 of the schema these declarations were generated from. */",
           f"export type SchemaSha256 = {json.dumps(sha256)};"]
    for name, lit in model.aliases.items():
        out += ["", f"export type {name} = {ts_type(lit)};"]
    for c in model.classes.values():
        out += emit_class(c, c.name in given)
    for u in model.unions.values():
        out += ["", f"/** Told apart by `{u.tag}`. */",
                f"export type {u.name} = {' | '.join(cls for _, cls in u.variants)};"]
    out += ["", "/** Every event this schema names, told apart by `event` (switch on it to narrow). */",
            "export type Event ="]
    out += [f"  | {cls}" for cls in model.events.values()]
    out[-1] += ";"
    out += ["", "/** Event name -> its model. */", "export interface EventMap {"]
    out += [f"  {name}: {cls};" for name, cls in model.events.items()]
    out += ["}", "", "/** Wire method -> its params and result models. */", "export interface MethodMap {"]
    for method, cls in model.params.items():
        out.append(f"  {method}: {{ params: {cls}; result: {ts_type(model.results[method])} }};")
    out.append("}")
    return "\n".join(out) + "\n"


# ---- exact numbers: where a schema number sits in what the library returns ------------------------
def _numbered_classes(model: Model) -> set:
    """Classes holding a schema number at any depth (a fixed point: classes refer to each other)."""
    found: set = set()
    changed = True
    while changed:
        changed = False
        for c in model.classes.values():
            if c.name not in found and any(descriptor(model, f.type, found) is not None for f in c.fields):
                found.add(c.name)
                changed = True
    return found


def descriptor(model: Model, t: tuple, numbered: set) -> Optional[object]:
    """How methods.js finds the numbers in a value of type `t`: "n" a number, a class name,
    ["list", d], ["map", d], ["tagged", member, {value: class}]; None when it holds none."""
    kind = t[0]
    if kind == "prim":
        return "n" if t[1] == "number" else None
    if kind == "union":
        return "n" if any(descriptor(model, p, numbered) == "n" for p in t[1]) else None
    if kind == "opt":
        return descriptor(model, t[1], numbered)
    if kind in ("list", "map"):
        inner = descriptor(model, t[1], numbered)
        return None if inner is None else [kind, inner]
    if kind == "class":
        return t[1] if t[1] in numbered else None
    if kind == "tagged":
        u = model.unions[t[1]]
        table = {str(v): cls for values, cls in u.variants for v in values if cls in numbered}
        return ["tagged", u.tag, table] if table else None
    return None


def number_tables(model: Model) -> Dict[str, Dict[str, object]]:
    """NUMBERS (class -> member -> descriptor), RESULTS (method -> descriptor), EVENTS (name -> class)."""
    numbered = _numbered_classes(model)
    classes = {}
    for c in model.classes.values():
        members = {f.name: descriptor(model, f.type, numbered) for f in c.fields}
        members = {k: v for k, v in members.items() if v is not None}
        if members:
            classes[c.name] = members
    results = {m: d for m, t in model.results.items() if (d := descriptor(model, t, numbered)) is not None}
    events = {name: cls for name, cls in model.events.items() if cls in numbered}
    return {"NUMBERS": classes, "RESULTS": results, "EVENTS": events}
