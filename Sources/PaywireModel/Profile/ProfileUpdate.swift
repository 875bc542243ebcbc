import PaywireWire

/// `update_profile`'s params applied to a profile: custom attributes (`AttributeRules`), the
/// standard attributes (`StandardAttributeRules`), `analytics_disabled` and `consumption_data_consent`. Pure: the caller
/// keeps the result. An unknown member is refused, so a typo (`birth_day`) is not lost quietly.
package enum ProfileUpdate {
    package static let members: Set<String> = Set(StandardAttributeRules.keys + ["custom_attributes", "analytics_disabled", "consumption_data_consent"])

    package static func apply(_ params: Fields, to profile: inout Profile, now: WideInt) throws(WireError) {
        guard !params.object.members.isEmpty else {
            throw WireError(.wrongParam, "update_profile needs at least one of: custom_attributes, analytics_disabled, consumption_data_consent, "
                            + StandardAttributeRules.keys.joined(separator: ", "))
        }
        if let unknown = params.unknownKeys(members).first {
            throw WireError.wrongParam(params.fieldPath(unknown), "is not a member of update_profile")
        }
        var next = profile
        if let custom = try params.optionalObject("custom_attributes") {
            try AttributeRules.apply(custom, to: &next.customAttributes)
        }
        try StandardAttributeRules.apply(params, to: &next.standard, now: now)
        if let value = params.object["analytics_disabled"] {
            guard case .bool(let disabled) = value else { throw WireError.wrongParam("analytics_disabled", "expected a boolean") }
            next.analyticsDisabled = disabled
        }
        if let value = params.object["consumption_data_consent"] {
            switch value {
            case .bool(let consent): next.consumptionDataConsent = consent
            case .null: next.consumptionDataConsent = nil
            default: throw WireError.wrongParam("consumption_data_consent", "expected a boolean, or null to remove it")
            }
        }
        profile = next
    }
}
