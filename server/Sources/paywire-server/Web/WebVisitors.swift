/// Meets web visitors through the profile's own door (`ProfileDoor`): a cookie whose credential
/// opens its profile is that visitor; anything else is a new visitor with a new profile, so a
/// browser never reaches a profile whose credential it does not hold.
struct WebVisitors {
    let api: API

    /// The visitor, and whether its cookie must be (re)set.
    struct Admitted: Sendable {
        let visitor: WebVisitor
        let isNew: Bool
    }

    /// The cookie's visitor when its credential opens the profile, else a new one.
    func admit(_ cookieHeader: String?) async throws -> Admitted {
        if let known = try await known(cookieHeader) { return known }
        let profileId = WebVisitor.newProfileId(api.random)
        let credential = try await api.profileDoor.issue(profileId, replacingPending: true)
        return Admitted(visitor: WebVisitor(profileId: profileId, credential: credential), isNew: true)
    }

    /// The cookie's visitor when its credential opens the profile; nil otherwise. A credential
    /// the door replaced (a pending one, answered late) comes back in the cookie.
    func known(_ cookieHeader: String?) async throws -> Admitted? {
        guard let visitor = WebVisitor.read(cookieHeader: cookieHeader) else { return nil }
        switch try await api.profileDoor.check([visitor.profileId], credential: visitor.credential) {
        case .refused:
            return nil
        case .open(let issued?):
            return Admitted(visitor: WebVisitor(profileId: visitor.profileId, credential: issued), isNew: true)
        case .open(nil):
            return Admitted(visitor: visitor, isNew: false)
        }
    }
}
