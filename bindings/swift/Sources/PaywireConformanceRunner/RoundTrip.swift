import PaywireKit

/// Everything the library writes, read into the generated models and written back, must give the
/// same JSON (numbers compared by value, members in any order): the models lose nothing. A
/// difference is reported as a runner error, which fails the case.
enum RoundTrip {
    static func resultProblem(method: String, envelope: JSONValue) -> String? {
        guard let success = envelope["success"] else { return nil }
        do {
            guard let again = try GeneratedRoundTrip.result(method, success) else { return nil }
            return again == success ? nil : "typed round trip of \(method)'s result changed \(success.jsonText.prefix(300)) into \(again.jsonText.prefix(300))"
        } catch {
            return "\(method)'s result does not read into its model: \(error)"
        }
    }

    static func eventProblem(_ event: JSONValue) -> String? {
        do {
            let typed = try PaywireEvent(json: event)
            return typed.jsonValue == event ? nil : "typed round trip changed the event \(event.jsonText.prefix(300)) into \(typed.jsonValue.jsonText.prefix(300))"
        } catch {
            return "an event does not read into its model: \(error): \(event.jsonText.prefix(300))"
        }
    }

    /// The `decode` op (tests/conformance/future.py): a library's JSON, a result of `method` or an
    /// event, read into the typed models and written back, as an older binding meets a newer library.
    static func decode(_ op: [String: JSONValue]) -> JSONObject {
        do {
            let json = try JSONValue(parsing: op["json_text"]?.stringValue ?? "")
            if op["kind"]?.stringValue == "event" {
                let typed = try PaywireEvent(json: json)
                if case .unknown = typed {
                    return ["decoded_text": .string(typed.jsonValue.jsonText), "event_type": "unknown"]
                }
                return ["decoded_text": .string(typed.jsonValue.jsonText), "event_type": "known"]
            }
            guard let again = try GeneratedRoundTrip.result(op["method"]?.stringValue ?? "", json) else {
                return ["runner_error": "no typed result for this method"]
            }
            return ["decoded_text": .string(again.jsonText)]
        } catch {
            return ["runner_error": .string("the typed layer refused it: \(error)")]
        }
    }
}
