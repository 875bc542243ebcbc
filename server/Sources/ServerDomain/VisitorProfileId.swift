/// The shape of a web paywall visitor's profile id: `web-` and 32 lowercase hex digits. The
/// prefix says where the profile was made (results and support see it), and the shape is what
/// keeps device routes out of it (`ProfileCredentials.isServersOwn`): a rule of the domain,
/// which the web paywall's cookie (`WebVisitor`) reads as well.
package enum VisitorProfileId {
    package static let prefix = "web-"

    /// Whether `profileId` has a visitor's shape.
    package static func matches(_ profileId: String) -> Bool {
        profileId.hasPrefix(prefix) && profileId.utf8.count == prefix.utf8.count + 32
            && profileId.utf8.dropFirst(prefix.utf8.count).allSatisfy(isHex)
    }

    private static func isHex(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x61...0x66).contains(c) }
}
