"""Prints the model of schema_ir.py as Swift for bindings/swift (PaywireKit): a struct per class
(`PaywireModel`: JSON both ways, Codable, Sendable, Hashable; members the schema does not name
kept in `unknownMembers`), an enum per set of the schema's strings (`PaywireEnum`, with
`unknown(String)`), an enum per tagged union (with `unknown(JSONValue)`). Schema numbers are
`Decimal`, read from the number's text (JSONRepresentable.swift)."""
from typing import Dict, List, Tuple

import marker
import swift_names as names
from schema_ir import Class, Field, Model, Union, camel

HEADER = marker.header("//")
I1, I2, I3 = "    ", "        ", "            "


def doc(text: str, indent: str) -> List[str]:
    text = " ".join(text.split())
    return [f"{indent}/// {text}"] if text else []


def swift_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class SwiftTypes:
    """The Swift type of each schema type expression; names the enums as it meets them."""

    def __init__(self, model: Model):
        self.model = model
        self.enum_names = names.EnumNames(model)
        self.enums: Dict[str, Tuple[str, ...]] = dict((name, tuple(lit[1])) for name, lit in model.aliases.items())

    def of(self, t: tuple, owner: str, member: str) -> str:
        kind = t[0]
        if kind == "prim":
            return {"str": "String", "int": "Int", "bool": "Bool", "number": "Decimal", "null": "Void",
                    "any": "JSONValue", "object": "JSONObject"}[t[1]]
        if kind == "lit":
            return self._literal(tuple(t[1]), owner, member)
        if kind == "alias":
            return t[1]
        if kind == "list":
            return f"[{self.of(t[1], owner, member)}]"
        if kind == "map":
            return f"[String: {self.of(t[1], owner, member)}]"
        if kind == "opt":
            inner = self.of(t[1], owner, member)
            return inner if inner == "JSONValue" else inner + "?"
        if kind in ("class", "tagged"):
            return names.type_name(t[1])
        if kind == "union":
            parts = {p for p in t[1]}
            if parts == {("prim", "str"), ("prim", "number")}:
                return "DecimalText"  # a store's price: a string or a number, written as the string
            return "JSONValue"
        raise ValueError(f"no Swift type for {t}")

    def _literal(self, values: Tuple, owner: str, member: str) -> str:
        if len(values) == 1:
            return {str: "String", int: "Int", bool: "Bool"}.get(type(values[0]), "JSONValue")
        if all(isinstance(v, str) for v in values):
            name = self.enum_names.name(values, owner, member)
            self.enums[name] = values
            return name
        return "JSONValue"


def field_type(types: SwiftTypes, owner: str, f: Field) -> str:
    base = types.of(f.type, owner, f.name)
    if f.required:
        return base
    if f.nullable_optional and base != "JSONValue":
        return base + "?"  # absent nil, null .some(nil)
    return base if base.endswith("?") else base + "?"


def const_of(f: Field):
    """The value of a member fixed to one value (a variant's `type`, a `format_version`)."""
    if f.required and f.type[0] == "lit" and len(f.type[1]) == 1 and isinstance(f.type[1][0], (str, int)):
        value = f.type[1][0]
        return swift_string(value) if isinstance(value, str) else str(value)
    return None


def read_call(f: Field, typ: str) -> str:
    key = swift_string(f.name)
    if f.required:
        return f"try reader.required({key})"
    if f.nullable_optional:
        return f"reader.raw({key})" if typ == "JSONValue?" else f"try reader.present({key})"
    return f"try reader.optional({key})"


def emit_struct(c: Class, types: SwiftTypes, role: str = "") -> List[str]:
    """`role` says what the class is when the schema does not (`the params of get_paywall`)."""
    name = names.type_name(c.name)
    fields = [(f, names.member_name(f.name), field_type(types, name, f)) for f in c.fields]
    out = [""] + doc(c.doc or (f"The `{c.event}` event." if c.event else role or f"The schema's `{c.name}`."), "")
    out += [f"public struct {name}: PaywireModel {{"]
    if c.event:
        out += [f"{I1}/// The wire name of this event.", f"{I1}public static let eventName = {swift_string(c.event)}",
                f"{I1}/// The event's place in the client's ordered stream (1, 2, 3, ...).", f"{I1}public var seq: Int"]
    for f, member, typ in fields:
        out += doc(f.doc or f"The `{f.name}` member.", I1)
        const = const_of(f)
        out.append(f"{I1}public var {names.identifier(member)}: {typ}" + (f" = {const}" if const else ""))
    out += [f"{I1}/// Members this binding's schema does not name (a newer library's), kept so the value writes back whole.",
            f"{I1}public var unknownMembers: JSONObject", ""]
    out += _init(c, fields) + [""] + _decode(c, fields) + [""] + _encode(c, fields)
    keys = [f.name for f in c.fields] + (["event", "seq"] if c.event else [])
    out += ["", f"{I1}static let memberNames: Set<String> = [{', '.join(swift_string(k) for k in keys)}]", "}"]
    return out


def init_default(f: Field, typ: str) -> str:
    """A memberwise init's default: the one allowed value, nil, or an empty collection."""
    const = const_of(f)
    if const:
        return f" = {const}"
    if typ.endswith("?"):
        return " = nil"
    if typ == "JSONObject" or typ.startswith("[String: "):
        return " = [:]"
    return " = []" if typ.startswith("[") else ""


def _init(c: Class, fields) -> List[str]:
    params = ["seq: Int"] if c.event else []
    for f, member, typ in fields:
        params.append(f"{member}: {typ}{init_default(f, typ)}")
    params.append("unknownMembers: JSONObject = [:]")
    out = [f"{I1}/// A value made in code; members left out are absent (or their one allowed value).",
           f"{I1}public init({', '.join(params)}) {{"]
    if c.event:
        out.append(f"{I2}self.seq = seq")
    out += [f"{I2}self.{names.identifier(member)} = {names.identifier(member)}" for _, member, _ in fields]
    return out + [f"{I2}self.unknownMembers = unknownMembers", f"{I1}}}"]


def _decode(c: Class, fields) -> List[str]:
    name = names.type_name(c.name)
    out = [f"{I1}public init(json: JSONValue) throws {{", f"{I2}let reader = try ModelReader(json, {swift_string(name)})"]
    if c.event:
        out.append(f'{I2}seq = try reader.required("seq")')
    out += [f"{I2}{names.identifier(member)} = {read_call(f, typ)}" for f, member, typ in fields]
    return out + [f"{I2}unknownMembers = reader.unknown(Self.memberNames)", f"{I1}}}"]


def _encode(c: Class, fields) -> List[str]:
    out = [f"{I1}public var jsonValue: JSONValue {{", f"{I2}var writer = ModelWriter()"]
    if c.event:
        out += [f'{I2}writer.required("event", Self.eventName)', f'{I2}writer.required("seq", seq)']
    for f, member, _ in fields:
        how = "required" if f.required else "optional"
        out.append(f"{I2}writer.{how}({swift_string(f.name)}, {names.identifier(member)})")
    return out + [f"{I2}writer.unknown(unknownMembers)", f"{I2}return writer.json", f"{I1}}}"]


def emit_enum(name: str, values: Tuple[str, ...], owner_doc: str = "") -> List[str]:
    cases = names.case_names(values)
    listed = [(value, case) for value, case in cases.items() if case]
    out = ["", f"/// {owner_doc or 'One of the schema’s strings'}: {', '.join('`' + v + '`' for v in values)}.",
           "/// A value this binding does not list (a newer library's) reads as `unknown`, never as an error.",
           f"public enum {name}: PaywireEnum {{"]
    for value, case in listed:
        out += [f"{I1}/// `{value}`", f"{I1}case {names.identifier(case)}"]
    held = ' (and `"unknown"` itself)' if "unknown" in values else ""
    out += [f"{I1}/// A value this binding does not list{held}, as the library wrote it.", f"{I1}case unknown(String)", "",
            f"{I1}public init(rawValue: String) {{", f"{I2}switch rawValue {{"]
    out += [f"{I2}case {swift_string(value)}: self = .{case}" for value, case in listed]
    out += [f"{I2}default: self = .unknown(rawValue)", f"{I2}}}", f"{I1}}}", "",
            f"{I1}public var rawValue: String {{", f"{I2}switch self {{"]
    out += [f"{I2}case .{case}: {swift_string(value)}" for value, case in listed]
    return out + [f"{I2}case .unknown(let value): value", f"{I2}}}", f"{I1}}}", "}"]


def union_cases(u: Union) -> List[Tuple[str, Tuple, str]]:
    """(case name, tag values, Swift type) per variant: the variant's class name less the union's."""
    out = []
    for values, cls in u.variants:
        short = cls[len(u.name):] if cls.startswith(u.name) and len(cls) > len(u.name) else cls
        out.append((short[:1].lower() + short[1:], values, names.type_name(cls)))
    return out


def emit_union(u: Union) -> List[str]:
    name = names.type_name(u.name)
    cases = union_cases(u)
    out = ["", f"/// One of {', '.join(t for _, _, t in cases)}, told apart by `{u.tag}`; a variant this binding",
           "/// does not know (a newer library's) is kept whole as `unknown`.", f"public enum {name}: PaywireModel {{"]
    for case, values, typ in cases:
        out += [f"{I1}/// `{u.tag}`: {', '.join(str(v) for v in values)}", f"{I1}case {case}({typ})"]
    out += [f"{I1}/// A variant this binding does not know, as the library wrote it.", f"{I1}case unknown(JSONValue)", "",
            f"{I1}public init(json: JSONValue) throws {{",
            f"{I2}guard case .object(let members) = json else {{ throw JSONShapeError.expected(\"an object\", got: json) }}",
            f"{I2}switch members[{swift_string(u.tag)}] {{"]
    for case, values, typ in cases:
        labels = ", ".join((f".string({swift_string(v)})" if isinstance(v, str) else f".number({v})") + "?" for v in values)
        out.append(f"{I2}case {labels}: self = .{case}(try {typ}(json: json))")
    out += [f"{I2}default: self = .unknown(json)", f"{I2}}}", f"{I1}}}", "", f"{I1}public var jsonValue: JSONValue {{",
            f"{I2}switch self {{"]
    out += [f"{I2}case .{case}(let value): value.jsonValue" for case, _, _ in cases]
    return out + [f"{I2}case .unknown(let json): json", f"{I2}}}", f"{I1}}}", "}"]
