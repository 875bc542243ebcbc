import PaywireWire

/// What an attribution provider said about the install (`update_attribution`), kept by source.
package struct SourceAttribution: Equatable, Sendable {
    package var attribution: JSONObject
    package var networkUserId: String?

    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("attribution", .object(attribution))]
        if let networkUserId { members.append(("network_user_id", .string(networkUserId))) }
        return .object(JSONObject(members))
    }
}

/// The rules for `set_integration_identifiers` and `update_attribution`. Keys come from a
/// known set (the ids the peers' SDKs forward to their integrations), so a typo is refused
/// rather than stored under a name no backend reads.
package enum IntegrationRules {
    package static let knownKeys: [String] = [
        "appsflyer_id", "adjust_device_id", "firebase_app_instance_id", "mixpanel_user_distinct_id", "amplitude_user_id",
        "amplitude_device_id", "one_signal_subscription_id", "one_signal_player_id", "pushwoosh_hwid", "branch_id",
        "airbridge_device_id", "posthog_distinct_id",
    ]
    package static let maxSourceBytes = 64
    /// An attribution is a provider's small dictionary; more is a mistake, and it is kept forever.
    package static let maxAttributionBytes = 10_000

    /// Merges the ids in `params` into `ids`, refusing the whole call when one breaks a rule.
    package static func apply(_ params: Fields, to ids: inout [String: String]) throws(WireError) {
        guard !params.object.members.isEmpty else {
            throw WireError.wrongParam("integration_identifiers", "expected at least one id, by key: \(knownKeys.joined(separator: ", "))")
        }
        var next = ids
        for member in params.object.members {
            let path = params.fieldPath(member.key)
            guard knownKeys.contains(member.key) else {
                throw WireError.wrongParam(path, "unknown integration id key; known: \(knownKeys.joined(separator: ", "))")
            }
            guard case .string(let value) = member.value, !value.isEmpty, value.utf8.count <= ValueLimits.maxStringBytes else {
                throw WireError.wrongParam(path, "expected a non-empty string of at most \(ValueLimits.maxStringBytes) bytes")
            }
            next[member.key] = value
        }
        ids = next
    }

    /// The source and what it said, from `update_attribution`'s params.
    package static func attribution(_ params: Fields) throws(WireError) -> (source: String, value: SourceAttribution) {
        let source = try params.string("source")
        guard isValidSource(source) else {
            throw WireError.wrongParam("source", "expected 1 to 64 lowercase letters, digits or '_', starting with a letter (adjust, appsflyer, branch, custom, ...)")
        }
        let attribution = try params.object("attribution").object
        guard JSONWriter.encode(.object(attribution)).count <= maxAttributionBytes else {
            throw WireError.wrongParam("attribution", "at most 10000 bytes as JSON")
        }
        let networkUserId = try params.optionalString("network_user_id")
        if let networkUserId, networkUserId.isEmpty || networkUserId.utf8.count > ValueLimits.maxStringBytes {
            throw WireError.wrongParam("network_user_id", "expected a non-empty string of at most \(ValueLimits.maxStringBytes) bytes")
        }
        let known: Set<String> = ["source", "attribution", "network_user_id"]
        if let unknown = params.unknownKeys(known).first { throw WireError.wrongParam(unknown, "is not a member of update_attribution") }
        return (source, SourceAttribution(attribution: attribution, networkUserId: networkUserId))
    }

    package static func isValidSource(_ source: String) -> Bool {
        guard let first = source.unicodeScalars.first, ("a"..."z").contains(first), source.utf8.count <= maxSourceBytes else { return false }
        return source.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
