"""Prints bindings/node/lib/generated/methods.js and its declarations methods.d.ts: a typed method per
wire method on TypedMethods, the base of the Node Client (`client.getPaywall({placement_id})`,
and `client.getPaywallAsync(...)` returning a Promise), SCHEMA_VERSION (the Client refuses a
library of another MAJOR or an older MINOR), SCHEMA_SHA256 and the exact-number tables of ts_emit.py."""
import json
import re
from typing import Dict, List

from schema_ir import Model, camel
from ts_emit import DIR, HEADER, doc, number_tables, ts_type

# Names a typed method must not take: the Client's own and EventEmitter's.
RESERVED = {"call", "callRaw", "callAsync", "poll", "close", "closed", "on", "once", "off", "emit",
            "addListener", "removeListener", "removeAllListeners", "listeners", "constructor"}


def js_name(method: str) -> str:
    name = camel(method)
    name = name[:1].lower() + name[1:]
    assert name not in RESERVED and name + "Async" not in RESERVED, f"{method} would hide Client.{name}"
    return name


def _optional(model: Model, method: str) -> bool:
    return not any(f.required for f in model.classes[model.params[method]].fields)


def _describe(model: Model, method: str) -> str:
    fields = model.classes[model.params[method]].fields
    described = "; ".join(f"{f.name}: {' '.join(f.doc.split())}" for f in fields if f.doc)
    return f"Calls `{method}`. {described}".strip()


def _table(name: str, table: Dict[str, object], comment: str) -> List[str]:
    out = [f"// {comment}", f"const {name} = Object.freeze({{"]
    out += [f"  {key}: {json.dumps(value, separators=(', ', ': '))}," for key, value in table.items()]
    return out + ["});"]


def methods_js(model: Model, schema_id: str, sha256: str, version: str) -> str:
    tables = number_tables(model)
    out = [HEADER.format(schema_id=schema_id).rstrip("\n"), "'use strict';",
           "// Every wire method, typed (declarations in methods.d.ts and models.d.ts): TypedMethods is the",
           "// base of Client, which supplies _callTyped and _callTypedAsync. Results are the parsed JSON",
           "// with every number the schema calls `number` made a Decimal, also when the library wrote an",
           "// integer (a price of 149), so a price is always a Decimal; it still encodes to the same text.",
           "const { EventEmitter } = require('events');", "const { Decimal } = require('../json');", "",
           f"const SCHEMA_ID = {json.dumps(schema_id)};",
           "// sha256 of schema/paywire.schema.json (the conformance kit's exact match).",
           f"const SCHEMA_SHA256 = {json.dumps(sha256)};",
           "// The schema's MAJOR.MINOR: the Client accepts a library of the same MAJOR and a MINOR at least this.",
           f"const SCHEMA_VERSION = {json.dumps(version)};", ""]
    out += _table("NUMBERS", tables["NUMBERS"],
                  'class -> member -> where its numbers are: "n" one, a class, ["list"|"map", d], ["tagged", member, {value: class}]')
    out += _table("RESULTS", tables["RESULTS"], "method -> where the numbers of its result are (methods not named have none)")
    out += _table("EVENTS", tables["EVENTS"], "event -> its class, for the events that carry numbers")
    out += ["// Every event this schema names; the Client passes any other (a newer library's) on as it came.",
            "const EVENT_NAMES = Object.freeze([" + ", ".join(json.dumps(name) for name in model.events) + "]);", ""]
    out += ["// wire method -> the typed method's name (its Promise twin adds Async)",
            "const METHODS = Object.freeze({"]
    out += [f"  {method}: {json.dumps(js_name(method))}," for method in model.params]
    out += ["});", "",
            "function exact(value, d) {",
            "  if (value === null || typeof value !== 'object' && d !== 'n') return value;",
            "  if (d === 'n') return typeof value === 'number' || typeof value === 'bigint' ? new Decimal(String(value)) : value;",
            "  if (typeof d === 'string') {",
            "    const members = NUMBERS[d];",
            "    for (const key of Object.keys(members)) {",
            "      if (Object.prototype.hasOwnProperty.call(value, key)) value[key] = exact(value[key], members[key]);",
            "    }",
            "    return value;",
            "  }",
            "  if (d[0] === 'list') return Array.isArray(value) ? value.map((item) => exact(item, d[1])) : value;",
            "  if (d[0] === 'map') {",
            "    for (const key of Object.keys(value)) value[key] = exact(value[key], d[1]);",
            "    return value;",
            "  }",
            "  const variant = d[2][String(value[d[1]])];",
            "  return variant === undefined ? value : exact(value, variant);",
            "}", "",
            "/** The result of `method` as the typed method returns it (numbers made exact, in place). */",
            "function decodeResult(method, value) {",
            "  return Object.prototype.hasOwnProperty.call(RESULTS, method) ? exact(value, RESULTS[method]) : value;",
            "}", "",
            "/** An event as the Client emits it (numbers made exact, in place); unknown events pass as they are. */",
            "function decodeEvent(event) {",
            "  const name = event !== null && typeof event === 'object' ? event.event : undefined;",
            "  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(EVENTS, name) ? exact(event, EVENTS[name]) : event;",
            "}", "",
            "class TypedMethods extends EventEmitter {",
            "  _callTyped(method, params) { throw new Error(`${method}: TypedMethods needs a Client`); }", "",
            "  _callTypedAsync(method, params) { return Promise.reject(new Error(`${method}: TypedMethods needs a Client`)); }"]
    for method in model.params:
        name, params = js_name(method), "params = {}" if _optional(model, method) else "params"
        out += [""] + doc(_describe(model, method), "  ")
        out += [f"  {name}({params}) {{", f"    return decodeResult('{method}', this._callTyped('{method}', params));", "  }", "",
                f"  /** Calls `{method}` without blocking: the Promise settles with its call_result. */",
                f"  {name}Async({params}) {{",
                f"    return this._callTypedAsync('{method}', params).then((result) => decodeResult('{method}', result));",
                "  }"]
    out += ["}", "",
            "module.exports = { TypedMethods, SCHEMA_ID, SCHEMA_SHA256, SCHEMA_VERSION, METHODS, EVENT_NAMES, decodeResult, decodeEvent };"]
    return "\n".join(out) + "\n"


def methods_d_ts(model: Model, schema_id: str, sha256: str, version: str) -> str:
    body: List[str] = []
    for method, cls in model.params.items():
        name, result = js_name(method), ts_type(model.results[method])
        arg = f"params{'?' if _optional(model, method) else ''}: {cls}"
        body += [""] + doc(_describe(model, method), "  ")
        body += [f"  {name}({arg}): {result};",
                 f"  /** Calls `{method}` without blocking: the Promise settles with its call_result. */",
                 f"  {name}Async({arg}): Promise<{result}>;"]
    used = sorted(set(re.findall(r"\b[A-Z]\w*\b", "\n".join(line for line in body if not line.lstrip().startswith("/**"))))
                  - {"Promise", "Array"} | {"Event", "MethodMap"})
    models = [n for n in used if n not in ("Decimal", "JsonObject", "JsonValue")]
    out = [HEADER.format(schema_id=schema_id).rstrip("\n"),
           "// Declarations of methods.js: a typed method per wire method.",
           "import { EventEmitter } from 'events';",
           "import type { JsonObject, JsonValue } from '../../index';",
           "import type {"]
    out += [f"  {n}," for n in models]
    out += ["} from './models';", "",
            f"export declare const SCHEMA_ID: {json.dumps(schema_id)};",
            "/** sha256 of the schema this binding was generated from (the conformance kit's exact match). */",
            f"export declare const SCHEMA_SHA256: {json.dumps(sha256)};",
            "/** The schema's MAJOR.MINOR; the Client refuses a library of another MAJOR or an older MINOR. */",
            f"export declare const SCHEMA_VERSION: {json.dumps(version)};",
            "/** Wire method -> its typed method's name (the Promise twin adds Async). */",
            "export declare const METHODS: Readonly<{ [method in keyof MethodMap]: string }>;",
            "/** Every event name this schema knows; an event named otherwise comes from a newer library and is passed on as it came. */",
            "export declare const EVENT_NAMES: ReadonlyArray<Event['event']>;",
            "/** A result as the typed method returns it: numbers the schema calls `number` made Decimal. */",
            "export declare function decodeResult<M extends keyof MethodMap>(method: M, value: JsonValue): MethodMap[M]['result'];",
            "/** An event as the Client emits it: numbers the schema calls `number` made Decimal. */",
            "export declare function decodeEvent(event: JsonObject): Event;", "",
            "/** Every wire method, typed; the Client supplies the calls. */",
            "export declare abstract class TypedMethods extends EventEmitter {"]
    out += body[1:] if body and body[0] == "" else body
    out.append("}")
    return "\n".join(out) + "\n"


def outputs(model: Model, schema_id: str, sha256: str, version: str) -> Dict[str, str]:
    """Path -> text of every generated file of the Node binding."""
    from ts_emit import models_d_ts
    return {f"{DIR}/models.d.ts": models_d_ts(model, schema_id, sha256),
            f"{DIR}/methods.js": methods_js(model, schema_id, sha256, version),
            f"{DIR}/methods.d.ts": methods_d_ts(model, schema_id, sha256, version)}
