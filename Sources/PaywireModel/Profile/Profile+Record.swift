import PaywireWire

extension Profile {
    /// The stored record: identity and grants in their JSON form (`Grant+JSON`), never derived
    /// state. Offline grants are not kept: they are the store's word of the moment, asked again
    /// each run (`OfflineAccessRules`).
    package var record: [UInt8] {
        func grants(_ list: [(id: String, grant: Grant)]) -> JSONValue {
            .object(JSONObject(list.filter { $0.grant.source != .offline }.map { ($0.id, .object(JSONObject($0.grant.deviceMembers))) }))
        }
        return JSONWriter.encode(.object(JSONObject([
            ("profile_id", .string(profileId)),
            ("customer_user_id", customerUserId.map { .string($0) } ?? .null),
            ("email", email.map { .string($0) } ?? .null),
            ("standard_attributes", .object(standardJSON)),
            ("analytics_disabled", .bool(analyticsDisabled)),
            ("consumption_data_consent", consumptionDataConsent.map { .bool($0) } ?? .null),
            ("integration_identifiers", .object(integrationIdsJSON)),
            ("attributions", .object(attributionsJSON)),
            ("timestamp", .number(JSONNumber(timestamp))),
            ("is_test_user", .bool(isTestUser)),
            ("last_backend_time", .number(JSONNumber(lastBackendTime))),
            ("backend_answered_at", .number(JSONNumber(backendAnsweredAt))),
            ("access_levels", grants(accessLevels)),
            ("subscriptions", grants(subscriptions)),
            ("non_subscriptions", .object(JSONObject(nonSubscriptions.map { item in
                (item.id, .array(item.purchases.map { .object(JSONObject($0.members)) }))
            }))),
            ("custom_attributes", .object(customAttributes)),
            ("cross_placement_assignments", .object(JSONObject(crossPlacementAssignments.sorted { $0.key < $1.key }
                .map { ($0.key, .string($0.value)) }))),
            ("signature", signatureJSON),
        ])))
    }

    /// The signed answers kept beside the grants (null without one): what they are checked
    /// against when the record is read back.
    private var signatureJSON: JSONValue {
        guard let signedAnswer else { return .null }
        return .object(JSONObject([("answer", signedAnswer.json), ("confirmation", signedConfirmation?.json ?? .null)]))
    }

    /// Reads a stored record; nil when it is unreadable (it is then replaced). Records written
    /// before grants were verified read as unverified.
    package static func fromRecord(_ bytes: [UInt8]) -> Profile? {
        guard case .object(let object)? = try? JSONParser.parse(bytes),
              case .string(let id)? = object["profile_id"], !id.isEmpty else { return nil }
        func text(_ key: String) -> String? {
            if case .string(let value)? = object[key], !value.isEmpty { return value }
            return nil
        }
        func grants(_ key: String) -> [(id: String, grant: Grant)] {
            guard case .object(let list)? = object[key] else { return [] }
            return list.members.compactMap { member in
                guard case .object(let fields) = member.value, let grant = try? Grant(fields, path: key) else { return nil }
                return (member.key, grant)
            }
        }
        func purchases() -> [(id: String, purchases: [NonSubscription])] {
            guard case .object(let list)? = object["non_subscriptions"] else { return [] }
            return list.members.compactMap { member in
                guard case .array(let items) = member.value else { return nil }
                let read = items.compactMap { item -> NonSubscription? in
                    guard case .object(let fields) = item else { return nil }
                    return try? NonSubscription(fields, productId: member.key, path: "non_subscriptions")
                }
                return read.isEmpty ? nil : (member.key, read)
            }
        }
        var profile = Profile(profileId: id, customerUserId: text("customer_user_id"), email: text("email"))
        profile.accessLevels = grants("access_levels")
        profile.subscriptions = grants("subscriptions")
        profile.nonSubscriptions = purchases()
        if case .number(let time)? = object["timestamp"] { profile.timestamp = time.wideValue ?? 0 }
        if case .bool(true)? = object["is_test_user"] { profile.isTestUser = true }
        if case .number(let time)? = object["last_backend_time"] { profile.lastBackendTime = time.wideValue ?? 0 }
        // A record from before offline access was bounded: the backend's last time it kept is
        // the best word on when the backend last answered.
        if case .number(let time)? = object["backend_answered_at"] {
            profile.backendAnsweredAt = time.wideValue ?? 0
        } else {
            profile.backendAnsweredAt = profile.lastBackendTime
        }
        if case .object(let attributes)? = object["custom_attributes"] { profile.customAttributes = attributes }
        profile.readAttributes(object)
        if case .object(let signature)? = object["signature"] {
            profile.signedAnswer = SignedAnswer(json: signature["answer"])
            profile.signedConfirmation = SignedAnswer(json: signature["confirmation"])
        }
        if case .object(let assignments)? = object["cross_placement_assignments"] {
            for member in assignments.members {
                if case .string(let group) = member.value { profile.crossPlacementAssignments[member.key] = group }
            }
        }
        return profile
    }
}

extension Profile {
    /// The standard attributes set, in the order the profile shows them.
    package var standardJSON: JSONObject {
        JSONObject(StandardAttributeRules.keys.compactMap { key in standard[key].map { (key, .string($0)) } })
    }

    package var integrationIdsJSON: JSONObject {
        JSONObject(integrationIds.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    }

    package var attributionsJSON: JSONObject {
        JSONObject(attributions.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
    }

    /// What `PUT /v1/profiles/{id}/attributes` carries: the standard attributes set, the
    /// opt-out, the consumption-data consent when set, the custom attributes. A change here is what makes a new record.
    package var sentAttributes: JSONObject {
        var object = standardJSON
        object.set("analytics_disabled", .bool(analyticsDisabled))
        if let consumptionDataConsent { object.set("consumption_data_consent", .bool(consumptionDataConsent)) }
        object.set("custom_attributes", .object(customAttributes))
        return object
    }

    /// Reads what `update_profile`, `set_integration_identifiers` and `update_attribution` kept;
    /// a record from before they existed has none of them.
    package mutating func readAttributes(_ object: JSONObject) {
        if case .object(let values)? = object["standard_attributes"] {
            for member in values.members where StandardAttributeRules.keys.contains(member.key) {
                if case .string(let value) = member.value { standard[member.key] = value }
            }
        }
        if case .bool(true)? = object["analytics_disabled"] { analyticsDisabled = true }
        if case .bool(let consent)? = object["consumption_data_consent"] { consumptionDataConsent = consent }
        if case .object(let ids)? = object["integration_identifiers"] {
            for member in ids.members { if case .string(let value) = member.value { integrationIds[member.key] = value } }
        }
        if case .object(let sources)? = object["attributions"] {
            for member in sources.members {
                guard case .object(let entry) = member.value, case .object(let attribution)? = entry["attribution"] else { continue }
                var networkUserId: String?
                if case .string(let id)? = entry["network_user_id"] { networkUserId = id }
                attributions[member.key] = SourceAttribution(attribution: attribution, networkUserId: networkUserId)
            }
        }
    }
}
