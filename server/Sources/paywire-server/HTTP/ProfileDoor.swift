import HTTPTypes
import PaywireModel
import PaywireWire
import ServerDomain
import ServerStore

/// The second lock of a device route that names a profile, in its path (`{profile_id}`) or in
/// its body (`profile_id`, a batch's records' `profile_id`): the request must carry
/// `x-paywire-profile-credential` with one of that profile's credentials (`ProfileCredentials`),
/// except while the profile is no device's yet, when it is served and a new credential issued.
/// The credential is never logged nor echoed; a refusal names only its problem code.
///
/// A named profile id must meet the identity rule (`Identity.checkNormalForm`, NFC) before
/// anything is compared or read: the names are told apart by their bytes, as the store tells
/// them apart, so a decomposed twin of a profile's id can neither hide behind it nor stand for it.
/// A profile the server makes for itself (`ProfileCredentials.isServersOwn`) is refused here
/// whatever the request carries: no device holds it.
struct ProfileDoor: Sendable {
    let store: any Storage
    let clock: any ServerClock
    let random: any RandomSource
    /// Where new credentials are taken from, per client address (`--new-credentials-per-address`).
    let mints: RateGates
    /// The client address of the request.
    let address: String

    /// A new credential was not handed out: the client address had its minute's worth.
    struct TooManyNew: Error {
        let waitSeconds: Int

        /// `429 rate_limited` with `Retry-After`: nothing was read or stored.
        var answer: Answer {
            .error(.tooManyRequests, "rate_limited", "too many new profiles from this address: retry in \(waitSeconds) s",
                   headers: [.retryAfter: String(waitSeconds)])
        }
    }

    /// What the door came to: open (with a credential to hand out in the answer's header) or
    /// refused with its answer.
    enum Outcome: Sendable {
        case open(issued: String?)
        case refused(Answer)
    }

    /// The profiles a request names: the path's, the body's, its records' (in first-seen order).
    /// `parsed` is the body the edge parsed once (`RouteInput.parsed`): the operation reads the
    /// same value, so what the door checked is what runs.
    static func named(pathProfileId: String?, parsed: JSONValue?) -> [String] {
        var names: [String] = []
        func add(_ value: JSONValue?) {
            if case .string(let id)? = value, !id.isEmpty, !names.contains(where: { Identity.same($0, id) }) { names.append(id) }
        }
        if let pathProfileId { add(.string(pathProfileId)) }
        guard case .object(let object)? = parsed else { return names }
        add(object["profile_id"])
        if case .array(let records)? = object["records"] {
            for case .object(let record) in records { add(record["profile_id"]) }
        }
        return names
    }

    /// Checks every profile the request names against the credential it carries. A request
    /// naming one profile no device holds yet is answered with a new credential of it; one
    /// naming several (an older batch) mints none: each is minted by its own next request.
    func check(_ profiles: [String], credential: String?) async throws -> Outcome {
        for profileId in profiles {
            do throws(WireError) {
                try Identity.checkNormalForm(profileId, "profile_id")
            } catch {
                return .refused(.invalid(error))
            }
            if ProfileCredentials.isServersOwn(profileId) {
                return .refused(.invalid("profile '\(profileId)' is \(ProfileCredentials.serversOwn): no device route opens it "
                                         + "(a held web purchase is opened by its redemption link)"))
            }
        }
        // One of no credential's shape matches none, and is refused as a wrong one.
        let given = credential.map { SecretToken.digest(ofToken: $0) ?? "" }
        var issued: String?
        // One read per 500 (an older batch names up to one profile a record), not one a
        // profile: a batch of 100 profiles cost 100 reads, about 25 ms (make bench).
        var keptByProfile: [String: [ProfileCredentials.Kept]] = [:]
        for start in stride(from: 0, to: profiles.count, by: 500) {
            let some = try await store.profileCredentials(of: Array(profiles[start..<min(start + 500, profiles.count)]))
            keptByProfile.merge(some) { first, _ in first }
        }
        for profileId in profiles {
            let kept = keptByProfile[profileId] ?? []
            switch ProfileCredentials.verdict(kept: kept, given: given) {
            case .open(let markUsed):
                if let markUsed { try await store.credentialUsed(digest: markUsed, now: clock.nowMilliseconds()) }
            case .issue where profiles.count == 1:
                do {
                    issued = try await issue(profileId, replacingPending: true)
                } catch let limited as TooManyNew {
                    return .refused(limited.answer)
                }
            case .issue:
                continue
            case .refused(let code):
                return .refused(Self.refusal(code))
            }
        }
        return .open(issued: issued)
    }

    /// A new credential of `profileId`, kept as its digest; the token, to be handed out once.
    /// Throws `TooManyNew` (before anything is stored) when the client address had its minute's
    /// worth: 440 new credentials a second were minted from one address with no limit.
    func issue(_ profileId: String, replacingPending: Bool) async throws -> String {
        if let wait = mints.mint(from: address) { throw TooManyNew(waitSeconds: wait) }
        let (token, digest) = SecretToken.make(random)
        try await store.issueCredential(profileId: profileId, digest: digest, replacingPending: replacingPending,
                                        now: clock.nowMilliseconds())
        return token
    }

    /// A new credential of the customer's profile an identity moved the device to: handed over
    /// whatever the address's allowance (the identity already moved the device, which must
    /// reach where it went), and taken from that allowance, which the identity checked first.
    func handOver(_ profileId: String) async throws -> String {
        _ = mints.mint(from: address)
        let (token, digest) = SecretToken.make(random)
        try await store.issueCredential(profileId: profileId, digest: digest, replacingPending: false, now: clock.nowMilliseconds())
        return token
    }

    private static func refusal(_ code: String) -> Answer {
        let message = code == ProfileCredentials.required
            ? "this profile belongs to a device: send its credential in '\(APIHeader.profileCredential)'"
            : "the credential in '\(APIHeader.profileCredential)' is not this profile's"
        return .error(.unauthorized, code, message)
    }
}
