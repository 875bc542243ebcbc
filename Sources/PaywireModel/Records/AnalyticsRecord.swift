import PaywireWire

/// One analytics record (`#/$defs/analytics_record` in the schema, `Record` of `POST /v1/events`
/// in api/openapi.yaml): who, when, in which session, what, and its params. The device writes it
/// with `encode` and checks it with `validate` before keeping it; the server reads it with
/// `decode`, which applies the same checks.
public struct AnalyticsRecord: Sendable {
    /// What every record says about where it comes from: the install, the session, the app and
    /// the SDK. Made once per client.
    public struct Source: Sendable {
        public let installId: String
        /// One per client: a session is one run of the app with Paywire.
        public let sessionId: String
        public let platform: String?
        public let appVersion: String?
        public let wrapper: (name: String, version: String)?

        public init(installId: String, sessionId: String, platform: String?, appVersion: String?,
                    wrapper: (name: String, version: String)?) {
            self.installId = installId
            self.sessionId = sessionId
            self.platform = platform
            self.appVersion = appVersion
            self.wrapper = wrapper
        }
    }

    /// Who and when: the members every record carries beside its params.
    public struct Header: Sendable {
        public let eventId: String
        public let profileId: String
        public let customerUserId: String?
        /// When it was made (ms since the epoch).
        public let createdAt: WideInt
        /// Its place in the device's queue (from 1).
        public let seq: WideInt
        public let name: String

        public init(eventId: String, profileId: String, customerUserId: String?, createdAt: WideInt, seq: WideInt, name: String) {
            self.eventId = eventId
            self.profileId = profileId
            self.customerUserId = customerUserId
            self.createdAt = createdAt
            self.seq = seq
            self.name = name
        }

        /// The rules of the members the header carries.
        public func validate() throws(WireError) {
            try RecordRules.checkEventId(eventId, "event_id")
            try Identity.checkProfileId(profileId, "profile_id")
            if let customerUserId { try Identity.checkCustomerUserId(customerUserId, "customer_user_id") }
            try RecordRules.checkCount(createdAt, "created_at")
            try RecordRules.checkCount(seq, "seq", from: 1)
            guard RecordRules.isSnakeCase(name) else { throw WireError.wrongParam("name", "must be snake_case") }
        }
    }

    public let header: Header
    public let source: Source
    public let sdkVersion: String
    public let params: JSONObject
    /// A `paywall_shown` record's exposure, read from its params; nil for other records.
    public let exposure: Exposure?

    /// The record's bytes: the header, then `params` as `writeParams` writes them, then the
    /// app and SDK. The device checks what it wrote with `validate(header:params:)`.
    public static func encode(_ header: Header, source: Source, sdkVersion: String,
                              writeParams: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 512)
        writer.object { writer in
            writer.member("event_id", header.eventId)
            writer.member("install_id", source.installId)
            writer.member("profile_id", header.profileId)
            if let customerUserId = header.customerUserId { writer.member("customer_user_id", customerUserId) }
            writer.member("session_id", source.sessionId)
            writer.member("created_at", header.createdAt)
            writer.member("seq", header.seq)
            writer.member("name", header.name)
            writer.key("params")
            writer.object(writeParams)
            writer.key("app")
            writer.object { writer in
                if let platform = source.platform { writer.member("platform", platform) }
                if let appVersion = source.appVersion { writer.member("app_version", appVersion) }
            }
            writer.key("sdk")
            writer.object { writer in
                writer.member("version", sdkVersion)
                if let wrapper = source.wrapper {
                    writer.key("wrapper")
                    writer.object { writer in
                        writer.member("name", wrapper.name)
                        writer.member("version", wrapper.version)
                    }
                }
            }
        }
        return writer.bytes
    }

    /// The device's check of a record it made: no U+0000 in what the params writer wrote (the
    /// host's text reaches them). The header's members need no second look: the device made
    /// the event id, the time and the seq, names its records by constants, and checked the
    /// profile and customer ids with `Header`'s rules where they came in (the config, `identify`).
    /// The exposure, the one params the server reads member by member, is checked by
    /// `Exposure.validate` where it is made.
    public static func validate(encoded: [UInt8]) throws(WireError) {
        if JSONText.holdsEscapedNUL(encoded) { throw WireError.wrongParam("params", "must not hold U+0000 in any string") }
    }

    /// Reads and checks one record as the backend receives it.
    public static func decode(_ value: JSONValue) throws(WireError) -> AnalyticsRecord {
        guard case .object(let object) = value else { throw WireError.wrongParam("record", "must be an object") }
        let fields = Fields(object)
        try RecordRules.refuseNulls(fields, ["customer_user_id"])
        let header = Header(eventId: try fields.string("event_id"), profileId: try fields.string("profile_id"),
                            customerUserId: try fields.optionalString("customer_user_id"), createdAt: try fields.wide("created_at"),
                            seq: try fields.wide("seq"), name: try fields.string("name"))
        try header.validate()
        let installId = try RecordRules.text(fields, "install_id")
        let sessionId = try RecordRules.text(fields, "session_id")
        let params = try fields.object("params")
        try RecordRules.checkNoNUL(.object(params.object), "params")
        let app = try fields.object("app")
        let sdk = try fields.object("sdk")
        try RecordRules.refuseNulls(app, ["platform", "app_version"])
        try RecordRules.refuseNulls(sdk, ["wrapper"])
        try RecordRules.refuseNulls(params, ["holdout", "forced"])
        var wrapper: (name: String, version: String)?
        if let given = try sdk.optionalObject("wrapper") {
            wrapper = (try RecordRules.text(given, "name", allowEmpty: true), try RecordRules.text(given, "version", allowEmpty: true))
        }
        let source = Source(installId: installId, sessionId: sessionId,
                            platform: try RecordRules.optionalText(app, "platform", allowEmpty: true),
                            appVersion: try RecordRules.optionalText(app, "app_version", allowEmpty: true), wrapper: wrapper)
        // Written only when true on paywall_shown; on any record, present means a boolean.
        _ = try params.optionalBool("holdout")
        _ = try params.optionalBool("forced")
        let exposure = header.name == Exposure.recordName ? try Exposure(params) : nil
        return AnalyticsRecord(header: header, source: source, sdkVersion: try RecordRules.text(sdk, "version", allowEmpty: true),
                               params: params.object, exposure: exposure)
    }
}

/// Facts about JSON text the writer made, read without parsing it again.
enum JSONText {
    /// Whether the text holds `\u0000`, the one way `JSONWriter` writes U+0000 (an escaped
    /// backslash before `u0000` is text, not an escape).
    static func holdsEscapedNUL(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { text in
            // Most records hold no backslash at all: one pass looking for one, and a closer
            // look only where one stands.
            var index = 0
            while let found = text[index...].firstIndex(of: UInt8(ascii: "\\")) {
                var end = found
                while end < text.count, text[end] == UInt8(ascii: "\\") { end += 1 }
                if (end - found) % 2 == 1, end + 4 < text.count, text[end] == UInt8(ascii: "u"),
                   text[end + 1] == 0x30, text[end + 2] == 0x30, text[end + 3] == 0x30, text[end + 4] == 0x30 {
                    return true
                }
                index = end
                if index >= text.count { break }
            }
            return false
        }
    }
}
