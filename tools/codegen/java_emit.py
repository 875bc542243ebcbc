"""Prints the model of schema_ir.py as Java for bindings/java: one class per model in the package
dev.paywire.model (gson trees in and out, typed getters, prices as BigDecimal), interfaces for the
tagged unions, Events.parse, Results (a decoder and encoder per method) and dev.paywire.TypedMethods
(a typed method per wire method, blocking and CompletableFuture), which Client extends.

Setters return void (Kotlin's property syntax wants that: `params.placementId = "onboarding"`),
and `withX` setters return the object for Java chains. Every value is a reference type: null is
an absent member, or a JSON null where the schema allows one; the few optional members where
null is also a value (an envelope's `success`) have `hasX()` to tell absent from null.
"""
import json
from typing import Dict, List

import marker
import static_types
from schema_ir import Class, Field, Model, Union, camel

PKG = "dev.paywire.model"
# The generated source root, compiled together with the hand-written bindings/java/src.
ROOT = "bindings/java/src-generated"
DIR = f"{ROOT}/dev/paywire/model"
HEADER = marker.header("//")
IMPORTS = ["com.google.gson.JsonElement", "com.google.gson.JsonObject", "dev.paywire.ModelJson",
           "java.math.BigDecimal", "java.util.List", "java.util.Map"]
KEYWORDS = {"abstract", "boolean", "byte", "case", "catch", "char", "class", "default", "do", "double",
            "else", "enum", "final", "float", "for", "goto", "if", "import", "int", "interface", "long",
            "native", "new", "package", "private", "protected", "public", "return", "short", "static",
            "super", "switch", "this", "throw", "try", "void", "while", "const", "continue", "var"}


def lower(name: str) -> str:
    c = camel(name)
    c = c[:1].lower() + c[1:]
    return c + "_" if c in KEYWORDS else c


jtype, lit_type = static_types.namer(
    prims={"str": "String", "int": "Long", "bool": "Boolean", "number": "BigDecimal", "null": "Void",
           "any": "JsonElement", "object": "JsonObject"},
    literals={str: "String", int: "Long", bool: "Boolean"}, list_of="List<{}>", map_of="Map<String, {}>",
    passthrough="JsonElement")


_PRIM_DECODE = {"String": "ModelJson.string", "Long": "ModelJson.integer", "Boolean": "ModelJson.bool",
                "BigDecimal": "ModelJson.decimal", "JsonObject": "ModelJson.object", "Void": "ModelJson.none"}


def decode(t: tuple, v: str, d: int = 0) -> str:
    """An expression turning the JsonElement `v` into the model's value."""
    kind = t[0]
    if kind in ("class", "tagged"):
        return f"{t[1]}.fromJson({v})"
    if kind == "list":
        return f"ModelJson.list({v}, x{d} -> {decode(t[1], f'x{d}', d + 1)})"
    if kind == "map":
        return f"ModelJson.map({v}, x{d} -> {decode(t[1], f'x{d}', d + 1)})"
    if kind == "opt":
        return f"ModelJson.nullable({v}, x{d} -> {decode(t[1], f'x{d}', d + 1)})"
    fn = _PRIM_DECODE.get(jtype(t))
    return f"{fn}({v})" if fn else v


def encode(t: tuple, v: str, d: int = 0) -> str:
    """An expression turning the model's value `v` back into a JsonElement."""
    kind = t[0]
    if kind in ("class", "tagged"):
        return f"{v}.toJson()"
    if kind == "list":
        return f"ModelJson.array({v}, x{d} -> {encode(t[1], f'x{d}', d + 1)})"
    if kind == "map":
        return f"ModelJson.object({v}, x{d} -> {encode(t[1], f'x{d}', d + 1)})"
    if kind == "opt":
        return f"ModelJson.nullOr({v}, x{d} -> {encode(t[1], f'x{d}', d + 1)})"
    return f"ModelJson.json({v})"


def javadoc(text: str, indent: str) -> List[str]:
    text = " ".join(text.split()).replace("*/", "*&#47;").replace("\\", "&#92;")
    return [f"{indent}/** {text} */"] if text else []


def file_of(schema_id: str, body: List[str], extra_imports: List[str] = ()) -> str:
    imports = sorted(set(IMPORTS) | set(extra_imports))
    out = [HEADER.format(schema_id=schema_id), f"package {PKG};", ""]
    out += [f"import {i};" for i in imports] + [""]
    return "\n".join(out + body) + "\n"


def _unions_of(model: Model) -> Dict[str, List[str]]:
    owners: Dict[str, List[str]] = {}
    for u in model.unions.values():
        for _, cls in u.variants:
            owners.setdefault(cls, []).append(u.name)
    return owners


def field_lines(f: Field, owner: str) -> List[str]:
    typ, name, prop = jtype(f.type), lower(f.name), camel(f.name)
    init = ""
    if f.required and f.type[0] == "lit" and len(f.type[1]) == 1:
        value = f.type[1][0]
        init = " = " + json.dumps(value) + ("L" if type(value) is int else "")  # a variant's tag: set already, like a constructor would
    out = [f"    private {typ} {name}{init};"]
    if f.nullable_optional:
        out.append(f"    private boolean has{prop};")
    out += javadoc(f.doc, "    ")
    out += [f"    public {typ} get{prop}() {{", f"        return {name};", "    }", ""]
    has = f" has{prop} = true;" if f.nullable_optional else ""
    out += [f"    public void set{prop}({typ} value) {{", f"        {name} = value;{has}", "    }", ""]
    out += [f"    public {owner} with{prop}({typ} value) {{", f"        set{prop}(value);", "        return this;", "    }", ""]
    if f.takes_model:  # any model where the schema takes a free JSON object: a product to make_purchase
        out += [f"    /** Any model as its JSON (a product getPaywallProducts returned); null is absent. */",
                f"    public void set{prop}(Model value) {{", f"        set{prop}(value == null ? null : value.toJson());", "    }", "",
                f"    public {owner} with{prop}(Model value) {{", f"        set{prop}(value);", "        return this;", "    }", ""]
    if f.nullable_optional:
        out += [f"    /** True when {f.name} is present (null included); false when absent. */",
                f"    public boolean has{prop}() {{", f"        return has{prop};", "    }", ""]
    return out


def decode_lines(c: Class) -> List[str]:
    out = ["    /** Reads the JSON object the library wrote; throws IllegalArgumentException for another shape. */",
           f"    public static {c.name} fromJson(JsonElement json) {{",
           f'        JsonObject o = ModelJson.obj(json, "{c.name}");', f"        {c.name} v = new {c.name}();"]
    if c.event:
        out.append(f'        v.seq = ModelJson.integer(ModelJson.req(o, "seq", "{c.name}"));')
    for f in c.fields:
        name, key = lower(f.name), json.dumps(f.name)
        if f.required:
            out.append(f'        v.{name} = {decode(f.type, f"ModelJson.req(o, {key}, {json.dumps(c.name)})")};')
        elif f.nullable_optional:
            out += [f"        if (o.has({key})) {{", f"            v.{name} = {decode(f.type, f'o.get({key})')};",
                    f"            v.has{camel(f.name)} = true;", "        }"]
        else:  # an optional member written as null reads as absent: the schema allows neither for it
            out += [f"        if (ModelJson.present(o, {key})) {{", f"            v.{name} = {decode(f.type, f'o.get({key})')};", "        }"]
    out += ["        v.extraFields = ModelJson.extra(o, KEYS);", "        return v;", "    }", ""]
    return out


def encode_lines(c: Class) -> List[str]:
    out = ["    /** The JSON object of this value; members not in the schema come back as they were read. */",
           "    @Override", "    public JsonObject toJson() {", "        JsonObject o = new JsonObject();"]
    if c.event:
        out += ['        o.addProperty("event", EVENT);', '        o.add("seq", ModelJson.json(seq));']
    for f in c.fields:
        name, key = lower(f.name), json.dumps(f.name)
        line = f"o.add({key}, {encode(f.type, name)});"
        if f.required:
            out.append(f"        {line}")
        else:
            guard = f"has{camel(f.name)}" if f.nullable_optional else f"{name} != null"
            out += [f"        if ({guard}) {{", f"            {line}", "        }"]
    out += ["        ModelJson.addAll(o, extraFields);", "        return o;", "    }"]
    return out


def emit_class(c: Class, unions: List[str], schema_id: str) -> str:
    parents = (["Event"] if c.event else ["Model"]) + unions
    keys = sorted([f.name for f in c.fields] + (["event", "seq"] if c.event else []))
    body = javadoc(c.doc or (f"The {c.event} event." if c.event else ""), "")
    body += [f"public final class {c.name} implements {', '.join(parents)} {{"]
    body += ["    private static final java.util.Set<String> KEYS = ModelJson.keys(" + ", ".join(json.dumps(k) for k in keys) + ");"]
    if c.event:
        body += [f"    /** The wire name of this event. */", f"    public static final String EVENT = {json.dumps(c.event)};",
                 "    private Long seq;", "", "    @Override", "    public String getEvent() {", "        return EVENT;", "    }", "",
                 "    @Override", "    public Long getSeq() {", "        return seq;", "    }", "",
                 "    public void setSeq(Long value) {", "        seq = value;", "    }", ""]
    body += ["    private JsonObject extraFields = new JsonObject();", ""]
    for f in c.fields:
        body += field_lines(f, c.name)
    body += ["    /** Members the schema does not name, kept so that encoding gives back what was read. */",
             "    public JsonObject getExtraFields() {", "        return extraFields;", "    }", ""]
    body += decode_lines(c) + encode_lines(c) + ["}"]
    return file_of(schema_id, body)


def emit_union(u: Union, schema_id: str) -> str:
    body = [f"/** One of {', '.join(cls for _, cls in u.variants)}, told apart by {u.tag}. */",
            f"public interface {u.name} extends Model {{", "    /** The variant its " + u.tag + " names. */",
            f"    static {u.name} fromJson(JsonElement json) {{", f'        JsonObject o = ModelJson.obj(json, "{u.name}");',
            f'        JsonElement tag = o.get("{u.tag}");']
    for values, cls in u.variants:
        cond = " || ".join(f"ModelJson.is(tag, {json.dumps(v)})" for v in values)
        body += [f"        if ({cond}) {{", f"            return {cls}.fromJson(o);", "        }"]
    body += [f"        return new {unknown_variant(u)}(o);", "    }", "}"]
    return file_of(schema_id, body)


def unknown_variant(u: Union) -> str:
    name = u.name + "Unknown"
    assert name not in [cls for _, cls in u.variants], f"{name} is also a variant's name"
    return name


def emit_unknown_variant(u: Union, schema_id: str) -> str:
    """A variant of the union this binding's schema does not name (a newer library's kind): kept whole."""
    name = unknown_variant(u)
    body = [f"/** A {u.name} whose {u.tag} this binding's schema does not list (a newer library's): kept whole, so it encodes back as it was read. */",
            f"public final class {name} implements {u.name} {{", "    private final JsonObject json;", "",
            f"    {name}(JsonObject json) {{", "        this.json = json.deepCopy();", "    }", "",
            f"    /** The {u.tag} as the library wrote it. */", "    public JsonElement getTag() {",
            f'        return json.get("{u.tag}");', "    }", "",
            "    @Override", "    public JsonObject toJson() {", "        return json.deepCopy();", "    }", "}"]
    return file_of(schema_id, body)


def emit_alias(name: str, lit: tuple, schema_id: str) -> str:
    body = [f"/** The values of {name}; a value not listed here (a newer library's) still reads as its string. */",
            f"public final class {name} {{"]
    for v in lit[1]:
        body += [f"    public static final {lit_type(lit[1])} {str(v).upper()} = {json.dumps(v)}{'L' if isinstance(v, int) else ''};"]
    body += ["", f"    private {name}() {{", "    }", "}"]
    return file_of(schema_id, body)
