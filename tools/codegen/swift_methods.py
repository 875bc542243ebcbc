"""Prints what ties the Swift models to the wire (bindings/swift/Sources/PaywireKit/Generated):
`PaywireEvent` (every event, typed, `unknown(name:json:)` for a newer one), the typed `async
throws` method of `PaywireClient` per wire method, the round-trip tables the runner and tests
use, and `PaywireSchema` (the hash the client compares with the library's)."""
from typing import Dict, List

import schema_ir
import swift_emit as se
import swift_names as names
from schema_ir import Model, camel

I1, I2, I3 = se.I1, se.I2, se.I3
OUT = "bindings/swift/Sources/PaywireKit/Generated"
# Methods whose Swift shape follows the seeds rather than the params object; hand-written in
# Sources/PaywireKit/Client/PaywireClient+Seeds.swift: makePurchase(product:) -> PurchaseResult,
# restorePurchases() -> Profile, logShowPaywall(_:), setFallback(fileURL:), identify(_:),
# updateProfile(_:).
HAND_WRITTEN = {"make_purchase", "restore_purchases", "log_show_paywall", "set_fallback", "identify", "update_profile"}


def events_swift(model: Model, types: se.SwiftTypes) -> List[str]:
    cases = [(names.lower_camel(event), names.type_name(cls)) for event, cls in model.events.items()]
    out = ["", "/// Every event the library sends, typed by its `event` name; `unknown` keeps one this binding's",
           "/// schema does not name (a newer library's) whole, so no event is lost.",
           "public enum PaywireEvent: PaywireModel {"]
    for (event, cls), (case, typ) in zip(model.events.items(), cases):
        out += se.doc(model.classes[cls].doc or f"`{event}`", I1) + [f"{I1}case {names.identifier(case)}({typ})"]
    out += [f"{I1}/// An event this binding's schema does not name: its `event` and the whole object.",
            f"{I1}case unknown(name: String, json: JSONValue)", "",
            f"{I1}/// Reads an event; throws when a known event's members do not have the schema's shape.",
            f"{I1}public init(json: JSONValue) throws {{",
            f'{I2}guard case .string(let name)? = json["event"] else {{',
            f'{I3}throw JSONShapeError(path: ["event"], message: "an event names itself with a string `event`")',
            f"{I2}}}", f"{I2}switch name {{"]
    out += [f"{I2}case {typ}.eventName: self = .{case}(try {typ}(json: json))" for case, typ in cases]
    out += [f"{I2}default: self = .unknown(name: name, json: json)", f"{I2}}}", f"{I1}}}", "",
            f"{I1}public var jsonValue: JSONValue {{", f"{I2}switch self {{"]
    out += [f"{I2}case .{case}(let event): event.jsonValue" for case, _ in cases]
    out += [f"{I2}case .unknown(_, let json): json", f"{I2}}}", f"{I1}}}", "",
            f"{I1}/// The event's wire name (`did_load_latest_profile`).", f"{I1}public var name: String {{", f"{I2}switch self {{"]
    out += [f"{I2}case .{case}: {typ}.eventName" for case, typ in cases]
    out += [f"{I2}case .unknown(let name, _): name", f"{I2}}}", f"{I1}}}", "",
            f"{I1}/// The event's `seq`: its place in the client's ordered stream.", f"{I1}public var seq: Int? {{",
            f"{I2}switch self {{"]
    out += [f"{I2}case .{case}(let event): event.seq" for case, _ in cases]
    return out + [f'{I2}case .unknown(_, let json): json["seq"]?.numberValue?.int', f"{I2}}}", f"{I1}}}", "}"]


def _method(model: Model, types: se.SwiftTypes, method: str) -> List[str]:
    cls = model.classes[model.params[method]]
    params_type = names.type_name(cls.name)
    result = types.of(model.results[method], camel(method) + "Result", "result")
    fields = [(f, names.member_name(f.name), se.field_type(types, params_type, f)) for f in cls.fields]
    arguments = []
    for f, member, typ in fields:
        if se.const_of(f):
            continue
        default = " = nil" if typ.endswith("?") or typ == "JSONValue?" else ""
        arguments.append(f"{names.identifier(member)}: {typ}{default}")
    passed = ", ".join(f"{member}: {names.identifier(member)}" for f, member, _ in fields if not se.const_of(f))
    text = "; ".join(f"`{names.member_name(f.name)}`: {' '.join(f.doc.split())}" for f, _, _ in fields if f.doc)
    out = [""] + se.doc(f"Calls `{method}` (`{params_type}`){': ' + text if text else '.'}", I1)
    out.append(f"{I1}/// Throws ``PaywireError`` (the envelope's error, or `busy`/`closed` from this binding).")
    if result != "Void" and not method.startswith("get_"):
        out.append(f"{I1}@discardableResult")
    returns = "" if result == "Void" else f" -> {result}"
    out += [f"{I1}public func {names.lower_camel(method)}({', '.join(arguments)}) async throws{returns} {{",
            f"{I2}try await {'perform' if result == 'Void' else 'invoke'}({se.swift_string(method)}, {params_type}({passed}))",
            f"{I1}}}"]
    return out


def methods_swift(model: Model, types: se.SwiftTypes, schema_id: str) -> str:
    out = [se.HEADER.format(schema_id=schema_id), "import Foundation", "",
           "/// Every wire method as an `async throws` method, named in lowerCamelCase with the params' members",
           "/// as argument labels (absent when nil). The seeds' own shapes (`makePurchase(product:)`, ...) are",
           "/// in PaywireClient+Seeds.swift.", "extension PaywireClient {"]
    for method in model.params:
        if method not in HAND_WRITTEN:
            out += _method(model, types, method)
    out += ["}", ""] + round_trip_swift(model, types)
    return "\n".join(out) + "\n"


def round_trip_swift(model: Model, types: se.SwiftTypes) -> List[str]:
    out = ["/// Reads JSON into the generated model of a method's params or result and writes it back: the",
           "/// conformance runner checks what the library writes, the tests what the vectors spell out.",
           "package enum GeneratedRoundTrip {", f"{I1}/// nil when the schema has no params for `method`.",
           f"{I1}package static func params(_ method: String, _ json: JSONValue) throws -> JSONValue? {{",
           f"{I2}switch method {{"]
    out += [f'{I2}case "{m}": return try {names.type_name(c)}(json: json).jsonValue' for m, c in model.params.items()]
    out += [f"{I2}default: return nil", f"{I2}}}", f"{I1}}}", "", f"{I1}/// nil when the schema has no result for `method`.",
            f"{I1}package static func result(_ method: String, _ json: JSONValue) throws -> JSONValue? {{",
            f"{I2}switch method {{"]
    for method, t in model.results.items():
        typ = types.of(t, camel(method) + "Result", "result")
        if typ == "Void":
            out.append(f'{I2}case "{method}": return try nullResult(json)')
        else:
            out.append(f'{I2}case "{method}": return try {typ}(json: json).jsonValue')
    out += [f"{I2}default: return nil", f"{I2}}}", f"{I1}}}", "",
            f"{I1}private static func nullResult(_ json: JSONValue) throws -> JSONValue {{",
            f'{I2}guard json == .null else {{ throw JSONShapeError.expected("null", got: json) }}', f"{I2}return .null",
            f"{I1}}}", "}"]
    return out


def schema_swift(schema_id: str, sha256: str, version: str) -> List[str]:
    return ["", "/// The wire schema these models were generated from. A ``PaywireClient`` refuses a library of",
            "/// another MAJOR or an older MINOR (its `get_sdk_version` names its `schema_version`).", "public enum PaywireSchema {",
            f"{I1}/// The schema's `$id`.", f"{I1}public static let id = {se.swift_string(schema_id)}",
            f"{I1}/// sha256 of schema/paywire.schema.json (the conformance kit's exact match).",
            f"{I1}public static let sha256 = {se.swift_string(sha256)}",
            f"{I1}/// The schema's MAJOR.MINOR.", f"{I1}public static let version = {se.swift_string(version)}", "}"]


def outputs(schema: Dict, schema_id: str, sha256: str, version: str) -> Dict[str, str]:
    base = schema_ir.build(schema)
    model = schema_ir.build(schema, ("config",))
    types = se.SwiftTypes(model)
    header = se.HEADER.format(schema_id=schema_id)
    models, config = [header, "import Foundation"], [header, "import Foundation"]
    roles: Dict[str, str] = {}
    for method, cls in model.params.items():
        roles.setdefault(cls, f"The params of `{method}`.")
    for method, t in model.results.items():
        if t[0] == "class":
            roles.setdefault(t[1], f"The result of `{method}`.")
    for c in model.classes.values():
        (models if c.name in base.classes else config).extend(se.emit_struct(c, types, roles.get(c.name, "")))
    for u in model.unions.values():
        models.extend(se.emit_union(u))
    events = [header, "import Foundation"] + events_swift(model, types) + schema_swift(schema_id, sha256, version)
    methods = methods_swift(model, types, schema_id)  # before the enums: results name some
    enums = [header]
    for name, values in types.enums.items():
        enums.extend(se.emit_enum(name, values))
    return {f"{OUT}/Models.g.swift": "\n".join(models) + "\n",
            f"{OUT}/Configuration.g.swift": "\n".join(config) + "\n",
            f"{OUT}/Events.g.swift": "\n".join(events) + "\n",
            f"{OUT}/Methods.g.swift": methods,
            f"{OUT}/Enums.g.swift": "\n".join(enums) + "\n"}
