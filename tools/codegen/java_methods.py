"""Prints the Java files that tie the models to the wire: Model and Event (the interfaces every
model and event implements), UnknownEvent, Events.parse, Schema (the hash the client checks),
Results (a decoder and an encoder per method's result, and the round-trip tables the tests use)
and dev.paywire.TypedMethods, a typed method per wire method, blocking and CompletableFuture."""
import json
from typing import Dict, List

import java_emit as je
from schema_ir import Model, camel

TYPED_HEADER = je.HEADER


def _simple(schema_id: str, body: List[str]) -> str:
    return je.file_of(schema_id, body)


def model_interfaces(schema_id: str) -> Dict[str, str]:
    model = ["/** A generated model: it encodes back to the JSON it was read from. */",
             "public interface Model {", "    JsonObject toJson();", "}"]
    event = ["/** A typed event: its wire name and sequence number (Events.parse picks the class). */",
             "public interface Event extends Model {", "    String getEvent();", "", "    Long getSeq();", "}"]
    unknown = ["/** An event this binding's schema does not name: receivers ignore unknown events, so it is kept whole. */",
               "public final class UnknownEvent implements Event {", "    private final JsonObject json;", "",
               "    private UnknownEvent(JsonObject json) {", "        this.json = json;", "    }", "",
               "    public static UnknownEvent fromJson(JsonElement json) {",
               '        JsonObject o = ModelJson.obj(json, "UnknownEvent");',
               '        ModelJson.string(ModelJson.req(o, "event", "UnknownEvent"));',
               '        ModelJson.integer(ModelJson.req(o, "seq", "UnknownEvent"));',
               "        return new UnknownEvent(o.deepCopy());", "    }", "",
               "    @Override", "    public String getEvent() {", '        return json.get("event").getAsString();', "    }", "",
               "    @Override", "    public Long getSeq() {", '        return json.get("seq").getAsLong();', "    }", "",
               "    @Override", "    public JsonObject toJson() {", "        return json.deepCopy();", "    }", "}"]
    return {f"{je.DIR}/Model.java": _simple(schema_id, model), f"{je.DIR}/Event.java": _simple(schema_id, event),
            f"{je.DIR}/UnknownEvent.java": _simple(schema_id, unknown)}


def events_java(model: Model, schema_id: str) -> str:
    body = ["/** Typed events: {@link #parse} picks the class by the event's name. */", "public final class Events {",
            "    private Events() {", "    }", "",
            "    /** The typed event of an event object (UnknownEvent for a name this schema does not know). */",
            "    public static Event parse(JsonElement json) {", '        JsonObject o = ModelJson.obj(json, "event");',
            '        JsonElement name = o.get("event");',
            '        switch (name != null && name.isJsonPrimitive() ? name.getAsString() : "") {']
    for name, cls in model.events.items():
        body += [f"            case {json.dumps(name)}:", f"                return {cls}.fromJson(o);"]
    body += ["            default:", "                return UnknownEvent.fromJson(o);", "        }", "    }", "}"]
    return _simple(schema_id, body)


def schema_java(schema_id: str, sha256: str, version: str) -> str:
    body = ["/** The schema these models were generated from; a Client refuses a library of another MAJOR or an older MINOR. */",
            "public final class Schema {", f"    public static final String ID = {json.dumps(schema_id)};",
            "    /** sha256 of schema/paywire.schema.json (the conformance kit's exact match). */",
            f"    public static final String SHA256 = {json.dumps(sha256)};",
            "    /** The schema's MAJOR.MINOR, compared with get_sdk_version's schema_version. */",
            f"    public static final String VERSION = {json.dumps(version)};", "", "    private Schema() {", "    }", "}"]
    return _simple(schema_id, body)


def results_java(model: Model, schema_id: str) -> str:
    body = ["/** The result of each method: decode, encode, and the round-trip tables of the tests. */",
            "public final class Results {",
            "    /** method -> JSON params read into their model and written back. */",
            "    public static final Map<String, UnaryOperator<JsonElement>> PARAMS_ROUND_TRIP = new TreeMap<>();",
            "    /** method -> JSON result read into its model and written back. */",
            "    public static final Map<String, UnaryOperator<JsonElement>> RESULT_ROUND_TRIP = new TreeMap<>();", "",
            "    static {"]
    for method, cls in model.params.items():
        body.append(f'        PARAMS_ROUND_TRIP.put("{method}", json -> {cls}.fromJson(json).toJson());')
    for method in model.results:
        body.append(f'        RESULT_ROUND_TRIP.put("{method}", json -> encode{camel(method)}(decode{camel(method)}(json)));')
    body += ["    }", "", "    private Results() {", "    }"]
    for method, t in model.results.items():
        typ = je.jtype(t)
        body += ["", f"    public static {typ} decode{camel(method)}(JsonElement json) {{",
                 f"        return {je.decode(t, 'json')};", "    }", "",
                 f"    public static JsonElement encode{camel(method)}({typ} value) {{",
                 f"        return {je.encode(t, 'value')};", "    }"]
    body.append("}")
    return je.file_of(schema_id, body, ["java.util.TreeMap", "java.util.function.UnaryOperator"])


def _method(model: Model, method: str) -> List[str]:
    cls = model.classes[model.params[method]]
    t = model.results[method]
    typ, name, dec = je.jtype(t), je.lower(method), f"Results::decode{camel(method)}"
    doc = "; ".join(f"{f.name}: {' '.join(f.doc.split())}" for f in cls.fields if f.doc)
    call = f'callTyped("{method}", params.toJson())'
    sync = f"        {call};" if typ == "Void" else f"        return Results.decode{camel(method)}({call});"
    out = je.javadoc(f"Calls {method}. {doc}".strip(), "    ")
    out += [f"    public {'void' if typ == 'Void' else typ} {name}({cls.name} params) {{", sync, "    }", ""]
    out += [f"    /** Calls {method} without blocking: the future completes when its call_result arrives. */",
            f"    public CompletableFuture<{typ}> {name}Async({cls.name} params) {{",
            f'        return callTypedAsync("{method}", params.toJson()).thenApply({dec});', "    }", ""]
    if not any(f.required for f in cls.fields):
        ret = "" if typ == "Void" else "return "
        out += [f"    public {'void' if typ == 'Void' else typ} {name}() {{", f"        {ret}{name}(new {cls.name}());", "    }", "",
                f"    public CompletableFuture<{typ}> {name}Async() {{", f"        return {name}Async(new {cls.name}());", "    }", ""]
    return out


def typed_methods_java(model: Model, schema_id: str) -> str:
    body = [TYPED_HEADER.format(schema_id=schema_id), "package dev.paywire;", "",
            "import com.google.gson.JsonElement;", "import dev.paywire.model.*;", "",
            "import java.util.List;", "import java.util.concurrent.CompletableFuture;", "",
            "/** Every wire method, typed; {@link Client} supplies the calls. */",
            "public abstract class TypedMethods {", "    TypedMethods() {", "    }", "",
            "    abstract JsonElement callTyped(String method, JsonElement params);", "",
            "    abstract CompletableFuture<JsonElement> callTypedAsync(String method, JsonElement params);", ""]
    for method in model.params:
        body += _method(model, method)
    body[-1] = "}"
    return "\n".join(body) + "\n"


def outputs(model: Model, schema_id: str, sha256: str, version: str) -> Dict[str, str]:
    """Path -> text of every generated Java file."""
    files = model_interfaces(schema_id)
    owners = je._unions_of(model)
    for c in model.classes.values():
        files[f"{je.DIR}/{c.name}.java"] = je.emit_class(c, owners.get(c.name, []), schema_id)
    for u in model.unions.values():
        files[f"{je.DIR}/{u.name}.java"] = je.emit_union(u, schema_id)
        files[f"{je.DIR}/{je.unknown_variant(u)}.java"] = je.emit_unknown_variant(u, schema_id)
    for name, lit in model.aliases.items():
        files[f"{je.DIR}/{name}.java"] = je.emit_alias(name, lit, schema_id)
    files[f"{je.DIR}/Events.java"] = events_java(model, schema_id)
    files[f"{je.DIR}/Schema.java"] = schema_java(schema_id, sha256, version)
    files[f"{je.DIR}/Results.java"] = results_java(model, schema_id)
    files[f"{je.ROOT}/dev/paywire/TypedMethods.java"] = typed_methods_java(model, schema_id)
    return files
