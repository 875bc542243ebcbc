import PaywireModel
import PaywireWire

/// The answers users gave in onboardings, kept per profile and onboarding so an app can resume
/// a flow or submit the answers without a store of its own.
///
/// One record per profile (`onboarding-answers-<md5 of profile id>`, so no id can name a path):
/// `{"<onboarding_id>": {"<element_id>": {element_type, value, screen_cid, screen_index}}}`.
/// An answer is written to storage before it is applied in memory, so a failed write leaves
/// nothing half-applied.
final class OnboardingAnswers {
    private let storage: Storage
    private var loaded: [String: JSONObject] = [:]

    init(storage: Storage) { self.storage = storage }

    private static func key(profileId: String) -> String {
        "onboarding-answers-" + MD5.hexDigest(profileId)
    }

    private func answers(profileId: String) throws(WireError) -> JSONObject {
        if let cached = loaded[profileId] { return cached }
        var record = JSONObject()
        if let bytes = try storage.read(OnboardingAnswers.key(profileId: profileId)),
           case .object(let stored)? = try? JSONParser.parse(bytes) {
            record = stored
        }
        loaded[profileId] = record
        return record
    }

    /// Records one answer, replacing the element's previous answer.
    func record(_ update: OnboardingStateUpdate, meta: OnboardingMeta, profileId: String, onboardingId: String) throws(WireError) {
        var record = try answers(profileId: profileId)
        var onboarding: JSONObject
        if case .object(let existing)? = record[onboardingId] { onboarding = existing } else { onboarding = JSONObject() }
        var value = JSONWriter()
        update.writeValue(to: &value)
        let parsedValue = (try? JSONParser.parse(value.bytes)) ?? .null
        onboarding.set(update.elementId, .object(JSONObject([
            ("element_type", .string(update.elementType)),
            ("value", parsedValue),
            ("screen_cid", .string(meta.screenCid)),
            ("screen_index", .number(JSONNumber(meta.screenIndex))),
        ])))
        record.set(onboardingId, .object(onboarding))
        try storage.write(OnboardingAnswers.key(profileId: profileId), JSONWriter.encode(.object(record)))
        loaded[profileId] = record
    }

    /// `{onboarding_id, profile_id, answers: {...}}` for `get_onboarding_state`.
    func state(profileId: String, onboardingId: String, to writer: inout JSONWriter) throws(WireError) {
        let record = try answers(profileId: profileId)
        writer.object { writer in
            writer.member("onboarding_id", onboardingId)
            writer.member("profile_id", profileId)
            writer.member("answers", record[onboardingId] ?? .object(JSONObject()))
        }
    }
}
