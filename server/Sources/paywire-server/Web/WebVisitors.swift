import ServerDomain

/// Meets web visitors by their cookie: a cookie whose credential is one its profile holds is
/// that visitor; anything else is a new visitor with a new profile. The lookup writes nothing
/// but the mark that a pending credential was used, so a cookie can neither take a profile
/// whose credential it lacks (even one still pending) nor choose a profile id, and so a bucket.
struct WebVisitors {
    let api: API

    /// The visitor, and whether its cookie must be set.
    struct Admitted: Sendable {
        let visitor: WebVisitor
        let isNew: Bool
    }

    /// The cookie's visitor when its credential is its profile's, else a new one, whose
    /// credential comes from `address`'s allowance (`ProfileDoor.TooManyNew` past it).
    func admit(_ cookieHeader: String?, from address: String) async throws -> Admitted {
        if let known = try await known(cookieHeader) { return known }
        let profileId = WebVisitor.newProfileId(api.random)
        let credential = try await api.profileDoor(from: address).issue(profileId, replacingPending: true)
        return Admitted(visitor: WebVisitor(profileId: profileId, credential: credential), isNew: true)
    }

    /// The cookie's visitor when its credential is one its profile holds; nil otherwise.
    func known(_ cookieHeader: String?) async throws -> Admitted? {
        guard let visitor = WebVisitor.read(cookieHeader: cookieHeader),
              let digest = SecretToken.digest(ofToken: visitor.credential) else { return nil }
        let kept = try await api.setup.store.profileCredentials(visitor.profileId)
        guard case .open(let markUsed) = ProfileCredentials.verdict(kept: kept, given: digest) else { return nil }
        if let markUsed { try await api.setup.store.credentialUsed(digest: markUsed, now: api.clock.nowMilliseconds()) }
        return Admitted(visitor: visitor, isNew: false)
    }
}
