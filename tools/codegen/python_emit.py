"""Prints the model of schema_ir.py as Python: paywire/_generated/models.py (dataclasses with
from_json and to_json, tagged unions, result decoders, events and parse_event; users import it as
paywire.models, a hand-written re-export) and, with python_methods.py, paywire/_generated/methods.py
(one typed method per wire method, sync and async).

Dataclasses rather than TypedDicts: a paywall read as `paywall.products[0].price.amount` is the
surface the issue asks for, and from_json/to_json decide absent vs null and keep unknown members,
which a TypedDict cannot (it is the dict itself, with no place to convert a number to Decimal).
"""
import re
import textwrap
from typing import List

import marker
from schema_ir import Class, Field, Model, Union

HEADER = marker.header("#")


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def py_type(t: tuple, q: str = "") -> str:
    """The annotation of `t`; `q` qualifies generated names ("models." outside models.py)."""
    kind = t[0]
    if kind == "prim":
        return {"str": "str", "int": "int", "bool": "bool", "number": "Decimal", "null": "None",
                "any": "Any", "object": "Dict[str, Any]"}[t[1]]
    if kind == "lit":
        return "Literal[" + ", ".join(repr(v) for v in t[1]) + "]"
    if kind in ("alias", "class", "tagged"):
        return q + t[1]
    if kind == "list":
        return f"List[{py_type(t[1], q)}]"
    if kind == "map":
        return f"Dict[str, {py_type(t[1], q)}]"
    if kind == "opt":
        return f"Optional[{py_type(t[1], q)}]"
    return "Union[" + ", ".join(py_type(p, q) for p in t[1]) + "]"


def _has_number(t: tuple) -> bool:
    return t == ("prim", "number") or (t[0] in ("union", "opt") and any(
        _has_number(p) for p in (t[1] if t[0] == "union" else [t[1]])))


def decode(t: tuple, v: str, depth: int = 0) -> str:
    """An expression turning JSON `v` into the model's value. Pass-through where nothing converts."""
    kind, d = t[0], depth
    if kind == "class":
        return f"{t[1]}.from_json({v})"
    if kind == "tagged":
        return f"decode_{snake(t[1])}({v})"
    if kind == "list" and decode(t[1], "x") != "x":
        return f"[{decode(t[1], f'x{d}', d + 1)} for x{d} in {v}]"
    if kind == "map" and decode(t[1], "x") != "x":
        return f"{{k{d}: {decode(t[1], f'x{d}', d + 1)} for k{d}, x{d} in {v}.items()}}"
    if kind == "opt" and decode(t[1], "x") != "x" and not _has_number(t):
        inner = decode(t[1], "x")
        fn = inner[:-len("(x)")] if inner.endswith("(x)") and inner.count("(") == 1 else f"lambda x{d}: {decode(t[1], f'x{d}', d + 1)}"
        return f"_mb.maybe({v}, {fn})"
    if _has_number(t):
        return f"_mb.num({v})"  # num leaves None, strings and booleans as they are
    return v


def encode(t: tuple, v: str, depth: int = 0) -> str:
    kind, d = t[0], depth
    if kind in ("class", "tagged"):
        return f"{v}.to_json()"
    if kind == "list" and encode(t[1], "x") != "x":
        return f"[{encode(t[1], f'x{d}', d + 1)} for x{d} in {v}]"
    if kind == "map" and encode(t[1], "x") != "x":
        return f"{{k{d}: {encode(t[1], f'x{d}', d + 1)} for k{d}, x{d} in {v}.items()}}"
    if kind == "opt" and encode(t[1], "x") != "x":
        return f"(None if {v} is None else {encode(t[1], v, d)})"  # v is an attribute: read twice, cheap
    return v


def field_type(f: Field, q: str = "") -> str:
    if f.takes_model:  # a JSON object, or any model (a product get_paywall_products returned)
        given = "Union[Dict[str, Any], _mb.JsonModel]"
        return given if f.required else f"Optional[{given}]"
    if f.nullable_optional:
        return f"Union[{py_type(f.type, q)}, _mb.Unset]"
    if f.required or f.type[0] == "opt":
        return py_type(f.type, q)
    return f"Optional[{py_type(f.type, q)}]"


def field_default(f: Field) -> str:
    return "" if f.required else (" = _mb.UNSET" if f.nullable_optional else " = None")


def docstring(text: str, indent: str) -> List[str]:
    text = " ".join(text.split())
    if not text:
        return []
    lines = textwrap.wrap(text.replace('"""', "'''"), 96 - len(indent))
    return [f'{indent}"""{lines[0]}' + ('"""' if len(lines) == 1 else "")] + \
        [indent + line for line in lines[1:]] + ([f'{indent}"""'] if len(lines) > 1 else [])


def emit_class(c: Class) -> List[str]:
    out = ["", "", "@dataclass", f"class {c.name}:"]
    out += docstring(c.doc or (f"The {c.event} event." if c.event else ""), "    ")
    out += [""] if out[-1] != f"class {c.name}:" else []
    if c.event:
        out.append(f"    EVENT: ClassVar[str] = {c.event!r}")
        out.append("    seq: int")
    ordered = [f for f in c.fields if f.required] + [f for f in c.fields if not f.required]
    for f in ordered:
        out.append(f"    {f.pyname}: {field_type(f)}{field_default(f)}")
    out.append("    extra_fields: Dict[str, Any] = _field(default_factory=dict, repr=False)")
    keys = sorted([f.name for f in c.fields] + (["event", "seq"] if c.event else []))
    out.append(f"    _KEYS: ClassVar[FrozenSet[str]] = frozenset({keys!r})")
    if c.event:
        out += ["", "    @property", "    def event(self) -> str:", "        return self.EVENT"]
    out += ["", "    @classmethod", f'    def from_json(cls, data: Any) -> "{c.name}":',
            f'        d = _mb.obj(data, "{c.name}")', "        return cls("]
    if c.event:
        out.append(f'            seq=_mb.req(d, "seq", "{c.name}"),')
    for f in ordered:
        out.append(f"            {f.pyname}={decode_member(c, f)},")
    out += ["            extra_fields=_mb.extra(d, cls._KEYS),", "        )", ""]
    out += ["    def to_json(self) -> Dict[str, Any]:", "        out: Dict[str, Any] = {}"]
    if c.event:
        out += ['        out["event"] = self.EVENT', '        out["seq"] = self.seq']
    for f in c.fields:
        out += encode_member(f)
    out += ["        out.update(self.extra_fields)", "        return out"]
    return out


def decode_member(c: Class, f: Field) -> str:
    if f.required:
        return decode(f.type, f'_mb.req(d, "{f.name}", "{c.name}")')
    value = decode(f.type, f'd["{f.name}"]')
    if f.nullable_optional:
        return f'{value} if "{f.name}" in d else _mb.UNSET'
    # An optional member written as null reads as absent: the schema allows neither for it.
    return f'{value} if d.get("{f.name}") is not None else None'


def encode_member(f: Field) -> List[str]:
    attr = f"self.{f.pyname}"
    if f.takes_model:
        return ([] if f.required else [f"        if {attr} is not None:"]) + \
            [f'        {"" if f.required else "    "}out["{f.name}"] = _mb.plain({attr})']
    if f.required:
        return [f'        out["{f.name}"] = {encode(f.type, attr)}']
    guard = f"not isinstance({attr}, _mb.Unset)" if f.nullable_optional else f"{attr} is not None"
    return [f"        if {guard}:", f'            out["{f.name}"] = {encode(f.type, attr)}']


UNKNOWN_VARIANT = '''

@dataclass
class UnknownVariant:
    """A variant of a tagged union this binding's schema does not name (a newer library's kind of
    result): kept whole, with the tag it had, so it encodes back to what the library wrote."""

    tag: Any
    extra_fields: Dict[str, Any] = _field(default_factory=dict, repr=False)

    def to_json(self) -> Dict[str, Any]:
        return dict(self.extra_fields)
'''


def emit_union(u: Union) -> List[str]:
    names = [cls for _, cls in u.variants] + ["UnknownVariant"]
    out = ["", "", f"{u.name} = Union[{', '.join(names)}]", "", "",
           f"def decode_{snake(u.name)}(data: Any) -> {u.name}:",
           f'    """The variant its `{u.tag}` names; UnknownVariant for a value this schema does not list."""',
           f'    d = _mb.obj(data, "{u.name}")', f'    tag = d.get("{u.tag}")']
    for values, cls in u.variants:
        out += [f"    if tag in {tuple(values)!r}:", f"        return {cls}.from_json(d)"]
    out.append("    return UnknownVariant(tag=tag, extra_fields=dict(d))")
    return out


def emit_results(model: Model) -> List[str]:
    out: List[str] = []
    for method, t in model.results.items():
        typ = py_type(t)
        out += ["", "", f"def decode_{method}_result(data: Any) -> {typ}:",
                f"    result: {typ} = {decode(t, 'data')}", "    return result",
                "", "", f"def encode_{method}_result(value: {typ}) -> Any:", f"    return {encode(t, 'value')}"]
    out += ["", "", "#: method -> its params model, its result decoder and encoder.",
            "PARAMS_MODELS: Dict[str, Any] = {"]
    out += [f"    {m!r}: {cls}," for m, cls in model.params.items()] + ["}"]
    out += ["RESULT_DECODERS: Dict[str, Callable[[Any], Any]] = {"]
    out += [f"    {m!r}: decode_{m}_result," for m in model.results] + ["}"]
    out += ["RESULT_ENCODERS: Dict[str, Callable[[Any], Any]] = {"]
    out += [f"    {m!r}: encode_{m}_result," for m in model.results] + ["}"]
    return out


UNKNOWN_EVENT = '''

@dataclass
class UnknownEvent:
    """An event this binding's schema does not name: receivers ignore unknown events, so it is
    kept whole rather than refused."""

    event: str
    seq: int
    extra_fields: Dict[str, Any] = _field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, data: Any) -> "UnknownEvent":
        d = _mb.obj(data, "UnknownEvent")
        return cls(event=_mb.req(d, "event", "UnknownEvent"), seq=_mb.req(d, "seq", "UnknownEvent"),
                   extra_fields=_mb.extra(d, frozenset(["event", "seq"])))

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"event": self.event, "seq": self.seq}
        out.update(self.extra_fields)
        return out
'''


def emit_events(model: Model) -> List[str]:
    out = UNKNOWN_EVENT.split("\n")
    out += ["", "AnyEvent = Union["] + [f"    {cls}," for cls in model.events.values()] + ["    UnknownEvent,", "]"]
    out += ["", "#: event name -> its class.", "EVENT_CLASSES: Dict[str, Any] = {"]
    out += [f"    {name!r}: {cls}," for name, cls in model.events.items()] + ["}"]
    out += ["", "", "def parse_event(data: Any) -> AnyEvent:",
            '    """The typed event for a polled event dict, by its `event` name (UnknownEvent for a',
            '    name this schema does not know)."""',
            '    d = _mb.obj(data, "event")',
            '    name = d.get("event")',
            '    cls = EVENT_CLASSES.get(name, UnknownEvent) if isinstance(name, str) else UnknownEvent',
            "    event: AnyEvent = cls.from_json(d)", "    return event"]
    return out


def models_py(model: Model, schema_id: str, sha256: str, version: str) -> str:
    out = [HEADER.format(schema_id=schema_id).rstrip("\n"),
           '"""Typed models of the Paywire wire: params and results of every method, events, errors.',
           "",
           "Each class reads JSON with `from_json` and writes it back with `to_json`; members the schema",
           "does not name are kept in `extra_fields`, so the round trip gives back what the library wrote.",
           'Numbers the schema calls `number` (prices) are `decimal.Decimal`."""',
           "from __future__ import annotations", "",
           "from dataclasses import dataclass", "from dataclasses import field as _field",
           "from decimal import Decimal",
           "from typing import Any, Callable, ClassVar, Dict, FrozenSet, List, Literal, Optional, Union", "",
           "from .. import _modelbase as _mb", "",
           f"SCHEMA_ID = {schema_id!r}",
           "#: sha256 of the schema file these models were generated from (the conformance kit's exact match).",
           f"SCHEMA_SHA256 = {sha256!r}",
           "#: The schema's MAJOR.MINOR: a Client accepts a library of the same MAJOR and a MINOR at least this.",
           f"SCHEMA_VERSION = {version!r}", ""]
    for name, lit in model.aliases.items():
        out.append(f"{name} = {py_type(lit)}")
    for c in model.classes.values():
        out += emit_class(c)
    out += UNKNOWN_VARIANT.split("\n")
    for u in model.unions.values():
        out += emit_union(u)
    out += emit_results(model)
    out += emit_events(model)
    return "\n".join(out) + "\n"
