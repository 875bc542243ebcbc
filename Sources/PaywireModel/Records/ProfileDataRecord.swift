import PaywireWire

/// What the device tells the backend about a profile besides purchases: its attributes
/// (`PUT /v1/profiles/{id}/attributes`), the ids other SDKs gave it (`PUT .../integration-ids`)
/// and what an attribution provider said (`POST /v1/attribution`). Each is kept by the backend
/// as the latest of its kind (per source for attribution), once per event id.
public struct ProfileDataRecord: Sendable {
    public enum Kind: String, WireEnum, Sendable {
        case attributes
        case integrationIdentifiers = "integration_identifiers"
        case attribution
    }

    public let eventId: String
    public let profileId: String
    public let customerUserId: String?
    public let kind: Kind
    /// The attribution's source (`adjust`, `appsflyer`, ...); empty for the other kinds.
    public let source: String
    /// What the backend keeps: the attributes, the ids, or `{attribution, network_user_id?}`.
    public let body: JSONValue

    /// `attributes` or `integration_identifiers` of a profile.
    public init(eventId: String, profileId: String, customerUserId: String?, kind: Kind, body: JSONValue) {
        self.init(eventId: eventId, profileId: profileId, customerUserId: customerUserId, kind: kind, source: "", body: body)
    }

    /// What one attribution source said.
    public init(eventId: String, profileId: String, customerUserId: String?, source: String, attribution: JSONObject,
                networkUserId: String?) {
        var kept: [(key: String, value: JSONValue)] = [("attribution", .object(attribution))]
        if let networkUserId { kept.append(("network_user_id", .string(networkUserId))) }
        self.init(eventId: eventId, profileId: profileId, customerUserId: customerUserId, kind: .attribution, source: source,
                  body: .object(JSONObject(kept)))
    }

    private init(eventId: String, profileId: String, customerUserId: String?, kind: Kind, source: String, body: JSONValue) {
        self.eventId = eventId
        self.profileId = profileId
        self.customerUserId = customerUserId
        self.kind = kind
        self.source = source
        self.body = body
    }

    public func validate() throws(WireError) {
        try RecordRules.checkEventId(eventId, "event_id")
        try Identity.checkProfileId(profileId, "profile_id")
        if let customerUserId { try Identity.checkCustomerUserId(customerUserId, "customer_user_id") }
        guard case .object(let object) = body else { throw WireError.wrongParam(kind.rawValue, "must be an object") }
        try RecordRules.checkNoNUL(body, kind == .attribution ? "attribution" : kind.rawValue)
        switch kind {
        case .attributes: try ProfileDataRules.checkAttributes(Fields(object, path: "attributes"))
        case .integrationIdentifiers:
            for member in object.members {
                guard case .string(let id) = member.value else {
                    throw WireError.wrongParam("integration_identifiers.\(member.key)", "must be a string")
                }
                try RecordRules.check(id, "integration_identifiers.\(member.key)")
            }
        case .attribution:
            guard ProfileDataRules.isSource(source) else { throw WireError.wrongParam("source", "must match ^[a-z][a-z0-9_]{0,63}$") }
            let fields = Fields(object)
            _ = try fields.object("attribution")
            _ = try RecordRules.optionalText(fields, "network_user_id")
        }
    }

    public func encode() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.object { writer in
            writer.member("event_id", eventId)
            writer.member("profile_id", profileId)
            if let customerUserId { writer.member("customer_user_id", customerUserId) }
            switch kind {
            case .attributes, .integrationIdentifiers: writer.member(kind.rawValue, body)
            case .attribution:
                writer.member("source", source)
                if case .object(let kept) = body {
                    for member in kept.members { writer.member(member.key, member.value) }
                }
            }
        }
        return writer.bytes
    }

    /// Reads and checks a request body. `pathProfileId` is the route's profile id: where there
    /// is one, it names the profile (the body's copy is the device's).
    public static func decode(_ bytes: [UInt8], kind: Kind, pathProfileId: String?) throws(WireError) -> ProfileDataRecord {
        try decode(parsed: try? JSONParser.parse(bytes), kind: kind, pathProfileId: pathProfileId)
    }

    /// Reads and checks a body already parsed (nil: it was no JSON).
    public static func decode(parsed: JSONValue?, kind: Kind, pathProfileId: String?) throws(WireError) -> ProfileDataRecord {
        let fields = try RecordRules.document(parsed: parsed, what: "the body")
        try RecordRules.refuseNulls(fields, ["customer_user_id", "network_user_id"])
        let eventId = try fields.string("event_id")
        let bodyProfileId = try fields.string("profile_id")
        let customerUserId = try fields.optionalString("customer_user_id")
        let record: ProfileDataRecord
        switch kind {
        case .attributes, .integrationIdentifiers:
            record = ProfileDataRecord(eventId: eventId, profileId: pathProfileId ?? bodyProfileId, customerUserId: customerUserId,
                                       kind: kind, body: .object(try fields.object(kind.rawValue).object))
        case .attribution:
            record = ProfileDataRecord(eventId: eventId, profileId: bodyProfileId, customerUserId: customerUserId,
                                       source: try fields.string("source"), attribution: try fields.object("attribution").object,
                                       networkUserId: try fields.optionalString("network_user_id"))
        }
        try Identity.checkProfileId(bodyProfileId, "profile_id")
        try record.validate()
        return record
    }
}

/// The members of a profile's attributes the contract types (`ProfileAttributesRequest.attributes`);
/// the others are kept as sent.
enum ProfileDataRules {
    static func checkAttributes(_ attributes: Fields) throws(WireError) {
        try RecordRules.refuseNulls(attributes, ["email", "phone_number", "first_name", "last_name", "gender", "birthday",
                                                 "app_tracking_transparency_status", "analytics_disabled", "consumption_data_consent",
                                                 "custom_attributes"])
        for key in ["email", "phone_number", "first_name", "last_name"] { _ = try attributes.optionalString(key) }
        let enums = [("gender", ["female", "male", "other"]),
                     ("app_tracking_transparency_status", ["authorized", "denied", "restricted", "not_determined"])]
        for (key, allowed) in enums {
            if let value = try attributes.optionalString(key), !allowed.contains(value) {
                throw WireError.wrongParam(attributes.fieldPath(key), "must be one of \(allowed.joined(separator: ", "))")
            }
        }
        if let birthday = try attributes.optionalString("birthday"), !isDate(birthday) {
            throw WireError.wrongParam(attributes.fieldPath("birthday"), "must be YYYY-MM-DD")
        }
        _ = try attributes.optionalBool("analytics_disabled")
        _ = try attributes.optionalBool("consumption_data_consent")
        if let custom = try attributes.optionalObject("custom_attributes") {
            for member in custom.object.members {
                switch member.value {
                case .string, .number, .bool: continue
                default: throw WireError.wrongParam(custom.fieldPath(member.key), "must be a string, a number or a boolean")
                }
            }
        }
    }

    /// A calendar date as the spec's `format: date` means it.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month) else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    static func isSource(_ source: String) -> Bool {
        let bytes = Array(source.utf8)
        guard let first = bytes.first, (97...122).contains(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }
}
