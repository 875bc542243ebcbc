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
}
