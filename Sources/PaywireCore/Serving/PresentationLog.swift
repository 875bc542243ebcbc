import PaywireModel
import PaywireWire

/// When each paywall placement's paywall appeared to each profile: what a placement's `cap` is
/// judged on. A presentation counts when the host reports the view appeared
/// (`present_paywall_view`), at access time (the backend's time once it has answered), and is
/// written to storage before the call returns, so a cap holds across restarts and kill -9.
///
/// One record per profile (`presentations-<md5 of profile id>`): `{"<placement_id>": [ms, ...]}`,
/// oldest first, at most `PresentationRules.maxCount` times per placement and none older than
/// the longest cap (`PresentationRules.maxSeconds`).
final class PresentationLog {
    private let storage: Storage
    private var loaded: [String: [String: [WideInt]]] = [:]

    init(storage: Storage) { self.storage = storage }

    /// The times `placementId`'s paywall appeared to the profile, oldest first.
    func times(of placementId: String, profileId: String) throws(WireError) -> [WideInt] {
        try record(profileId: profileId)[placementId] ?? []
    }

    /// Counts one presentation at `time`.
    func count(_ placementId: String, profileId: String, at time: WideInt) throws(WireError) {
        var record = try record(profileId: profileId)
        let oldest = time.clampedSubtracting(WideInt(PresentationRules.maxSeconds) * Milliseconds.second)
        let kept = (record[placementId] ?? []).filter { $0 > oldest } + [time]
        record[placementId] = Array(kept.suffix(PresentationRules.maxCount))
        var writer = JSONWriter()
        writer.object { writer in
            for placement in record.keys.sorted() {
                writer.key(placement)
                writer.array { writer in for time in record[placement] ?? [] { writer.int(time) } }
            }
        }
        try storage.write(PresentationLog.key(profileId: profileId), writer.bytes)
        loaded[profileId] = record
    }

    private static func key(profileId: String) -> String { "presentations-" + MD5.hexDigest(profileId) }

    private func record(profileId: String) throws(WireError) -> [String: [WideInt]] {
        if let cached = loaded[profileId] { return cached }
        var record: [String: [WideInt]] = [:]
        if let bytes = try storage.read(PresentationLog.key(profileId: profileId)), case .object(let stored)? = try? JSONParser.parse(bytes) {
            for member in stored.members {
                guard case .array(let values) = member.value else { continue }
                record[member.key] = values.compactMap { value in
                    if case .number(let number) = value { return number.wideValue }
                    return nil
                }
            }
        }
        loaded[profileId] = record
        return record
    }
}
