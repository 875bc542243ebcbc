"""Prints the C# that ties the models to the wire: IModel and IEvent, UnknownEvent, Events.Parse,
Schema (the hash the client checks), Results (a decoder and an encoder per method's result, and
the round-trip tables the tests use) in Models.g.cs, and TypedMethods.g.cs: the typed methods of
the partial class Paywire.Client, blocking and Task."""
import json
from typing import Dict, List

import csharp_emit as ce
from schema_ir import Model, camel

I1, I2, I3 = ce.I1, ce.I2, ce.I3

SUPPORT = '''
    /// <summary>A generated model: it encodes back to the JSON it was read from.</summary>
    public interface IModel
    {
        JsonObject ToJson();
    }

    /// <summary>A typed event: its wire name and sequence number (Events.Parse picks the class).</summary>
    public interface IEvent : IModel
    {
        string Event { get; }
        long? Seq { get; }
    }

    /// <summary>An event this binding's schema does not name: receivers ignore unknown events, so it is kept whole.</summary>
    public sealed class UnknownEvent : IEvent
    {
        private readonly JsonObject json;

        private UnknownEvent(JsonObject json)
        {
            this.json = json;
        }

        public string Event { get { return (string)json["event"]; } }
        public long? Seq { get { return (long)json["seq"]; } }

        public static UnknownEvent FromJson(JsonValue json)
        {
            JsonObject o = ModelJson.Obj(json, "UnknownEvent");
            ModelJson.String(ModelJson.Req(o, "event", "UnknownEvent"));
            ModelJson.Integer(ModelJson.Req(o, "seq", "UnknownEvent"));
            return new UnknownEvent((JsonObject)JsonValue.Parse(o.ToString()));
        }

        public JsonObject ToJson()
        {
            return (JsonObject)JsonValue.Parse(json.ToString());
        }
    }'''


def events_cs(model: Model) -> List[str]:
    out = ["", f"{I1}/// <summary>Typed events: Parse picks the class by the event's name.</summary>",
           f"{I1}public static class Events", f"{I1}{{",
           f"{I2}/// <summary>The typed event of an event object (UnknownEvent for a name this schema does not know).</summary>",
           f"{I2}public static IEvent Parse(JsonValue json)", f"{I2}{{", f'{I3}JsonObject o = ModelJson.Obj(json, "event");',
           f'{I3}JsonValue name = o.ContainsKey("event") ? o["event"] : null;',
           f'{I3}switch (name != null && name.JsonType == JsonType.String ? (string)name : "")', f"{I3}{{"]
    for name, cls in model.events.items():
        out.append(f"{I3}    case {json.dumps(name)}: return {cls}.FromJson(o);")
    return out + [f"{I3}    default: return UnknownEvent.FromJson(o);", f"{I3}}}", f"{I2}}}", f"{I1}}}"]


def schema_cs(schema_id: str, sha256: str, version: str) -> List[str]:
    return ["", f"{I1}/// <summary>The schema these models were generated from; a Client refuses a library of another MAJOR or an older MINOR.</summary>",
            f"{I1}public static class Schema", f"{I1}{{", f"{I2}public const string Id = {json.dumps(schema_id)};",
            f"{I2}/// <summary>sha256 of schema/paywire.schema.json (the conformance kit's exact match).</summary>",
            f"{I2}public const string Sha256 = {json.dumps(sha256)};",
            f"{I2}/// <summary>The schema's MAJOR.MINOR, compared with get_sdk_version's schema_version.</summary>",
            f"{I2}public const string Version = {json.dumps(version)};", f"{I1}}}"]


def results_cs(model: Model) -> List[str]:
    out = ["", f"{I1}/// <summary>The result of each method: decode, encode, and the round-trip tables of the tests.</summary>",
           f"{I1}public static class Results", f"{I1}{{",
           f"{I2}/// <summary>method -> JSON params read into their model and written back.</summary>",
           f"{I2}public static readonly Dictionary<string, Func<JsonValue, JsonValue>> ParamsRoundTrip = new Dictionary<string, Func<JsonValue, JsonValue>>",
           f"{I2}{{"]
    out += [f'{I3}{{ "{m}", json => {cls}.FromJson(json).ToJson() }},' for m, cls in model.params.items()]
    out += [f"{I2}}};", "", f"{I2}/// <summary>method -> JSON result read into its model and written back.</summary>",
            f"{I2}public static readonly Dictionary<string, Func<JsonValue, JsonValue>> ResultRoundTrip = new Dictionary<string, Func<JsonValue, JsonValue>>",
            f"{I2}{{"]
    out += [f'{I3}{{ "{m}", json => Encode{camel(m)}(Decode{camel(m)}(json)) }},' for m in model.results]
    out.append(f"{I2}}};")
    for method, t in model.results.items():
        typ = ce.cstype(t)
        out += ["", f"{I2}public static {typ} Decode{camel(method)}(JsonValue json)", f"{I2}{{",
                f"{I3}return {ce.decode(t, 'json')};", f"{I2}}}", "",
                f"{I2}public static JsonValue Encode{camel(method)}({typ} value)", f"{I2}{{",
                f"{I3}return {ce.encode(t, 'value')};", f"{I2}}}"]
    return out + [f"{I1}}}"]


def models_cs(model: Model, schema_id: str, sha256: str, version: str) -> str:
    out = [ce.HEADER.format(schema_id=schema_id), "using System;", "using System.Collections.Generic;", "using System.Json;", "",
           "namespace Paywire.Model", "{"]
    out += SUPPORT.split("\n")[1:]
    out += schema_cs(schema_id, sha256, version)
    owners = {cls: u.name for u in model.unions.values() for _, cls in u.variants}
    for name, lit in model.aliases.items():
        out += ce.emit_alias(name, lit)
    for c in model.classes.values():
        out += ce.emit_class(c, owners.get(c.name, ""))
    for u in model.unions.values():
        out += ce.emit_union(u)
    out += events_cs(model) + results_cs(model) + ["}"]
    return "\n".join(out) + "\n"


def _method(model: Model, method: str) -> List[str]:
    cls = model.classes[model.params[method]]
    t = model.results[method]
    typ, name, dec = ce.cstype(t), camel(method), f"Results.Decode{camel(method)}"
    void = typ == "object"
    text = "; ".join(f"{f.name}: {' '.join(f.doc.split())}" for f in cls.fields if f.doc)
    default = "" if any(f.required for f in cls.fields) else " = null"
    params = f"(parameters ?? new {cls.name}()).ToJson()"
    out = ce.doc(f"Calls {method}. {text}".strip(), I2)
    out += [f"{I2}public {'void' if void else typ} {name}({cls.name} parameters{default})", f"{I2}{{",
            f'{I3}{"" if void else "return "}{"" if void else dec + "("}CallTyped("{method}", {params}){"" if void else ")"};',
            f"{I2}}}", "", f"{I2}/// <summary>Calls {method} without blocking: the task completes when its call_result arrives.</summary>",
            f"{I2}public async Task{'' if void else '<' + typ + '>'} {name}Async({cls.name} parameters{default})", f"{I2}{{"]
    call = f'await CallTypedAsync("{method}", {params})'
    out += [f"{I3}{call};" if void else f"{I3}return {dec}({call});", f"{I2}}}", ""]
    return out


def typed_methods_cs(model: Model, schema_id: str) -> str:
    out = [ce.HEADER.format(schema_id=schema_id), "using System.Collections.Generic;", "using System.Threading.Tasks;",
           "using Paywire.Model;", "", "namespace Paywire", "{", f"{I1}/// <summary>Every wire method, typed.</summary>",
           f"{I1}public sealed partial class Client", f"{I1}{{"]
    for method in model.params:
        out += _method(model, method)
    out[-1] = f"{I1}}}"
    return "\n".join(out + ["}"]) + "\n"


def outputs(model: Model, schema_id: str, sha256: str, version: str) -> Dict[str, str]:
    return {"bindings/dotnet/src/Models.g.cs": models_cs(model, schema_id, sha256, version),
            "bindings/dotnet/src/TypedMethods.g.cs": typed_methods_cs(model, schema_id)}
