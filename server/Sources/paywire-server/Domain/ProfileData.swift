import PaywireWire

/// What the device tells the backend about a profile besides purchases: its attributes
/// (`PUT /v1/profiles/{id}/attributes`), the ids other SDKs gave it (`PUT .../integration-ids`)
/// and what an attribution provider said (`POST /v1/attribution`). The latest of each is kept
/// (per source for attribution); each request is stored once by event_id, so a retry after a
/// lost response changes nothing and answers `stored: false`.
enum ProfileData {
    enum Kind: String { case attributes, integrationIdentifiers = "integration_identifiers", attribution }

    /// One request's content: whose, which kind, which source (attribution only), what to keep.
    struct Post {
        let eventId: String
        let profileId: String
        let kind: Kind
        let source: String
        let body: JSONValue
    }

    /// Reads a request body. `pathProfileId` is the id in the route: where there is one, it
    /// names the profile (the body's copy is the device's, and the spec cannot tie the two).
    static func parse(_ bytes: [UInt8], kind: Kind, pathProfileId: String?) throws(RequestProblem) -> Post {
        guard let document = try? JSONValue(parsing: bytes), document.isObject else {
            throw RequestProblem("the body must be a JSON object")
        }
        guard let eventId = document["event_id"]?.asString, isUUID(eventId) else { throw RequestProblem("event_id must be a UUID") }
        guard let bodyProfileId = document["profile_id"]?.asString, !bodyProfileId.isEmpty else {
            throw RequestProblem("profile_id must be a non-empty string")
        }
        let profileId = pathProfileId ?? bodyProfileId
        if let customer = document["customer_user_id"], customer.asString?.isEmpty != false {
            throw RequestProblem("customer_user_id must be a non-empty string")
        }
        switch kind {
        case .attributes:
            guard let attributes = document["attributes"], attributes.isObject else { throw RequestProblem("attributes must be an object") }
            try checkAttributes(attributes)
            return Post(eventId: eventId, profileId: profileId, kind: kind, source: "", body: attributes)
        case .integrationIdentifiers:
            guard case .object(let ids)? = document["integration_identifiers"],
                  ids.members.allSatisfy({ ($0.value.asString?.utf8.count ?? 0) > 0 && ($0.value.asString?.utf8.count ?? 0) <= 256 }) else {
                throw RequestProblem("integration_identifiers must be an object of non-empty strings of at most 256 bytes")
            }
            return Post(eventId: eventId, profileId: profileId, kind: kind, source: "", body: .object(ids))
        case .attribution:
            guard let source = document["source"]?.asString, isSource(source) else {
                throw RequestProblem("source must match ^[a-z][a-z0-9_]{0,63}$")
            }
            guard let attribution = document["attribution"], attribution.isObject else { throw RequestProblem("attribution must be an object") }
            var kept: [(String, JSONValue)] = [("attribution", attribution)]
            if let id = document["network_user_id"] {
                guard let text = id.asString, !text.isEmpty, text.utf8.count <= 256 else {
                    throw RequestProblem("network_user_id must be a non-empty string of at most 256 bytes")
                }
                kept.append(("network_user_id", id))
            }
            return Post(eventId: eventId, profileId: profileId, kind: kind, source: source, body: .object(kept))
        }
    }

    /// The members the spec types (`ProfileAttributesRequest.attributes`); others are kept as sent.
    static func checkAttributes(_ attributes: JSONValue) throws(RequestProblem) {
        for key in ["email", "phone_number", "first_name", "last_name"] where attributes[key] != nil && attributes[key]?.asString == nil {
            throw RequestProblem("attributes.\(key) must be a string")
        }
        let enums = [("gender", ["female", "male", "other"]),
                     ("app_tracking_transparency_status", ["authorized", "denied", "restricted", "not_determined"])]
        for (key, allowed) in enums where attributes[key] != nil && !allowed.contains(attributes[key]?.asString ?? "") {
            throw RequestProblem("attributes.\(key) must be one of \(allowed.joined(separator: ", "))")
        }
        if let birthday = attributes["birthday"], !isDate(birthday.asString ?? "") { throw RequestProblem("attributes.birthday must be YYYY-MM-DD") }
        if let flag = attributes["analytics_disabled"], flag.asBool == nil { throw RequestProblem("attributes.analytics_disabled must be a boolean") }
        if let flag = attributes["consumption_data_consent"], flag.asBool == nil {
            throw RequestProblem("attributes.consumption_data_consent must be a boolean")
        }
        if let custom = attributes["custom_attributes"] {
            guard case .object(let members) = custom, members.members.allSatisfy({ member in
                switch member.value {
                case .string, .number, .bool: return true
                default: return false
                }
            }) else { throw RequestProblem("attributes.custom_attributes must map keys to strings, numbers or booleans") }
        }
    }

    /// A calendar date as the spec's `format: date` means it.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }), (1...12).contains(month) else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// 8-4-4-4-12 hex digits (the spec's `Uuid`).
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    static func isSource(_ source: String) -> Bool {
        let bytes = Array(source.utf8)
        guard let first = bytes.first, (97...122).contains(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }
}
