import PaywireModel
import PaywireWire

extension Log {
    /// A `log` warning for each text tag left as written, once per tag and reason: `where` is
    /// `builder` or `remote_config`.
    func tagsLeftAsWritten(_ problems: [TextTagProblem], in place: String) {
        var seen = Set<String>()
        for problem in problems where seen.insert("\(problem.tag)\u{0}\(problem.reason.rawValue)").inserted {
            var details: [(key: String, value: JSONValue)] = [
                ("tag", .string(problem.tag)), ("reason", .string(problem.reason.rawValue)), ("where", .string(place)),
            ]
            if let productId = problem.productId { details.append(("product_id", .string(productId))) }
            self(.warn, "text tag \(problem.tag) in the \(place) was left as written: \(problem.reason.rawValue)", details: details)
        }
    }
}
