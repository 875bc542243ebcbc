/// Which library's wire schema this binding can read: the same MAJOR, and a MINOR at least the
/// binding's. A newer MINOR only adds (members, values, events, methods) what the generated
/// models keep as their unknown parts; an older MINOR or another MAJOR may lack or change what
/// the binding relies on.
enum SchemaVersion {
    /// nil when a library whose schema is `library` (MAJOR.MINOR; nil when it says none) can serve
    /// a binding generated from `binding`; else the `VERSION_MISMATCH` error naming both.
    static func mismatch(library: String?, binding: String, path: String) -> PaywireLibraryError? {
        if let theirs = library.flatMap(majorMinor), let ours = majorMinor(binding),
           theirs.major == ours.major, theirs.minor >= ours.minor {
            return nil
        }
        return PaywireLibraryError(
            message: "VERSION_MISMATCH: \(path) speaks wire schema \(library ?? "(none)"), this binding was generated "
                + "from \(binding): it needs the same MAJOR and a MINOR at least \(binding) (use the binding of the "
                + "library's release)",
            tried: [path], status: "VERSION_MISMATCH", libraryVersion: library, bindingVersion: binding)
    }

    /// (major, minor) of "MAJOR.MINOR", or nil for anything else.
    static func majorMinor(_ text: String) -> (major: Int, minor: Int)? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }),
              let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        return (major, minor)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
