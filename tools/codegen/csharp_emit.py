"""Prints the model of schema_ir.py as C# for bindings/dotnet: Models.g.cs (namespace Paywire.Model:
a class per model with typed properties, prices as decimal, FromJson/ToJson over System.Json; an
abstract base per tagged union; Events.Parse; Results; Schema) and TypedMethods.g.cs (the typed
methods of the partial class Paywire.Client, blocking and Task). Value types are nullable (long?,
bool?, decimal?): null is an absent member, or a JSON null where the schema allows one; the few
optional members where null is also a value (an envelope's Success) have HasX."""
import json
from typing import Dict, List

import marker
import static_types
from schema_ir import Class, Field, Model, Union, camel

HEADER = marker.header("//")
I1, I2, I3 = "    ", "        ", "            "


cstype, lit_type = static_types.namer(
    prims={"str": "string", "int": "long?", "bool": "bool?", "number": "decimal?", "null": "object",
           "any": "JsonValue", "object": "JsonObject"},
    literals={str: "string", int: "long?", bool: "bool?"}, list_of="List<{}>", map_of="Dictionary<string, {}>",
    passthrough="JsonValue")


_PRIM = {"string": "String", "long?": "Integer", "bool?": "Bool", "decimal?": "Decimal", "JsonObject": "Object",
         "object": "None"}


def decode(t: tuple, v: str, d: int = 0) -> str:
    kind = t[0]
    if kind in ("class", "tagged"):
        return f"{t[1]}.FromJson({v})"
    if kind in ("list", "map", "opt"):
        fn = {"list": "List", "map": "Map", "opt": "Nullable"}[kind]
        return f"ModelJson.{fn}({v}, x{d} => {decode(t[1], f'x{d}', d + 1)})"
    fn = _PRIM.get(cstype(t))
    return f"ModelJson.{fn}({v})" if fn else v


def encode(t: tuple, v: str, d: int = 0) -> str:
    kind = t[0]
    if kind in ("class", "tagged"):
        return f"{v}.ToJson()"
    if kind in ("list", "map", "opt"):
        fn = {"list": "Array", "map": "Object", "opt": "NullOr"}[kind]
        return f"ModelJson.{fn}({v}, x{d} => {encode(t[1], f'x{d}', d + 1)})"
    if cstype(t) in ("JsonValue", "JsonObject"):
        return v  # already JSON (System.Json's implicit conversions would make an overload ambiguous)
    return f"ModelJson.Json({v})"


def doc(text: str, indent: str) -> List[str]:
    text = " ".join(text.split()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return [f"{indent}/// <summary>{text}</summary>"] if text else []


def prop_name(c: Class, f: Field) -> str:
    name = camel(f.name)
    name = name + "Value" if name == c.name else name  # a member may not be named as its class
    assert name not in ("Event", "Seq", "ExtraFields", "ToJson", "FromJson"), f"{c.name}.{f.name}"
    return name


def field_lines(c: Class, f: Field) -> List[str]:
    typ, name = cstype(f.type), prop_name(c, f)
    out = doc(f.doc, I2)
    if f.nullable_optional:
        back = "_" + name
        return out + [f"{I2}public {typ} {name} {{ get {{ return {back}; }} set {{ {back} = value; Has{name} = true; }} }}",
                      f"{I2}private {typ} {back};",
                      f"{I2}/// <summary>True when {f.name} is present (null included); false when absent.</summary>",
                      f"{I2}public bool Has{name} {{ get; private set; }}"]
    init = ""
    if f.required and f.type[0] == "lit" and len(f.type[1]) == 1:
        init = " = " + json.dumps(f.type[1][0]) + ";"  # a variant's tag: set already
    return out + [f"{I2}public {typ} {name} {{ get; set; }}{init}"]


def decode_lines(c: Class, hides: bool) -> List[str]:
    out = [f"{I2}/// <summary>Reads the JSON object the library wrote; throws FormatException for another shape.</summary>",
           f"{I2}public {'new ' if hides else ''}static {c.name} FromJson(JsonValue json)", f"{I2}{{",
           f'{I3}JsonObject o = ModelJson.Obj(json, "{c.name}");', f"{I3}var v = new {c.name}();"]
    if c.event:
        out.append(f'{I3}v.Seq = ModelJson.Integer(ModelJson.Req(o, "seq", "{c.name}"));')
    for f in c.fields:
        name, key = prop_name(c, f), json.dumps(f.name)
        if f.required:
            out.append(f'{I3}v.{name} = {decode(f.type, f"ModelJson.Req(o, {key}, {json.dumps(c.name)})")};')
        elif f.nullable_optional:
            out.append(f"{I3}if (o.ContainsKey({key})) v.{name} = {decode(f.type, f'o[{key}]')};")
        else:  # an optional member written as null reads as absent: the schema allows neither for it
            out.append(f"{I3}if (ModelJson.Present(o, {key})) v.{name} = {decode(f.type, f'o[{key}]')};")
    return out + [f"{I3}v.ExtraFields = ModelJson.Extra(o, Keys);", f"{I3}return v;", f"{I2}}}"]


def encode_lines(c: Class, override: bool) -> List[str]:
    out = [f"{I2}/// <summary>The JSON object of this value; members not in the schema come back as read.</summary>",
           f"{I2}public {'override ' if override else ''}JsonObject ToJson()", f"{I2}{{", f"{I3}var o = new JsonObject();"]
    if c.event:
        out += [f'{I3}o["event"] = EventName;', f'{I3}o["seq"] = ModelJson.Json(Seq);']
    for f in c.fields:
        name, key = prop_name(c, f), json.dumps(f.name)
        # this.: a property may share its name with a class (PostPurchase), and the class would win
        line = f"o[{key}] = {encode(f.type, 'this.' + name)};"
        if f.required:
            out.append(f"{I3}{line}")
        else:
            out.append(f"{I3}if ({'this.Has' + name if f.nullable_optional else 'this.' + name + ' != null'}) {line}")
    return out + [f"{I3}ModelJson.AddAll(o, ExtraFields);", f"{I3}return o;", f"{I2}}}"]


def emit_class(c: Class, union: str) -> List[str]:
    parents = ", ".join(([union] if union else []) + (["IEvent"] if c.event else ["IModel"]))
    keys = sorted([f.name for f in c.fields] + (["event", "seq"] if c.event else []))
    out = [""] + doc(c.doc or (f"The {c.event} event." if c.event else ""), I1)
    out += [f"{I1}public sealed class {c.name} : {parents}", f"{I1}{{",
            f"{I2}private static readonly HashSet<string> Keys = new HashSet<string> {{ {', '.join(json.dumps(k) for k in keys)} }};"]
    if c.event:
        out += [f"{I2}/// <summary>The wire name of this event.</summary>",
                f"{I2}public const string EventName = {json.dumps(c.event)};",
                f"{I2}public string Event {{ get {{ return EventName; }} }}", f"{I2}public long? Seq {{ get; set; }}"]
    for f in c.fields:
        out += field_lines(c, f)
    out += [f"{I2}/// <summary>Members the schema does not name, kept so that encoding gives back what was read.</summary>",
            f"{I2}public JsonObject ExtraFields {{ get; set; }} = new JsonObject();", ""]
    # A params member that is a free JSON object (make_purchase's Product) takes any model as its
    # JSON: `Product = products[0]` (a property cannot be overloaded; a conversion can serve it).
    convert = [f"{I2}/// <summary>This model as its JSON, where a free JSON object is taken (a params member).</summary>",
               f"{I2}public static implicit operator JsonObject({c.name} model)", f"{I2}{{",
               f"{I3}return model == null ? null : model.ToJson();", f"{I2}}}", ""]
    return out + convert + decode_lines(c, bool(union)) + [""] + encode_lines(c, bool(union)) + [f"{I1}}}"]


def emit_union(u: Union) -> List[str]:
    out = ["", f"{I1}/// <summary>One of {', '.join(cls for _, cls in u.variants)}, told apart by {u.tag}.</summary>",
           f"{I1}public abstract class {u.name} : IModel", f"{I1}{{", f"{I2}public abstract JsonObject ToJson();", "",
           f"{I2}public static {u.name} FromJson(JsonValue json)", f"{I2}{{",
           f'{I3}JsonObject o = ModelJson.Obj(json, "{u.name}");',
           f'{I3}JsonValue tag = o.ContainsKey("{u.tag}") ? o["{u.tag}"] : null;']
    for values, cls in u.variants:
        cond = " || ".join(f"ModelJson.Is(tag, {json.dumps(v)})" for v in values)
        out.append(f"{I3}if ({cond}) return {cls}.FromJson(o);")
    unknown = u.name + "Unknown"
    assert unknown not in [cls for _, cls in u.variants], f"{unknown} is also a variant's name"
    out += [f"{I3}return new {unknown}(o);", f"{I2}}}", f"{I1}}}", "",
            f"{I1}/// <summary>A {u.name} whose {u.tag} this binding's schema does not list (a newer library's): kept whole, so it encodes back as it was read.</summary>",
            f"{I1}public sealed class {unknown} : {u.name}", f"{I1}{{", f"{I2}private readonly JsonObject json;", "",
            f"{I2}internal {unknown}(JsonObject json)", f"{I2}{{", f"{I3}this.json = (JsonObject)JsonValue.Parse(json.ToString());", f"{I2}}}", "",
            f"{I2}/// <summary>The {u.tag} as the library wrote it.</summary>",
            f'{I2}public JsonValue Tag {{ get {{ return json.ContainsKey("{u.tag}") ? json["{u.tag}"] : null; }} }}', "",
            f"{I2}public override JsonObject ToJson()", f"{I2}{{", f"{I3}return (JsonObject)JsonValue.Parse(json.ToString());", f"{I2}}}"]
    return out + [f"{I1}}}"]


def emit_alias(name: str, lit: tuple) -> List[str]:
    out = ["", f"{I1}/// <summary>The values of {name}; a value not listed (a newer library's) still reads.</summary>",
           f"{I1}public static class {name}", f"{I1}{{"]
    typ = lit_type(lit[1]).rstrip("?")
    out += [f"{I2}public const {typ} {camel(str(v))} = {json.dumps(v)};" for v in lit[1]]
    return out + [f"{I1}}}"]
