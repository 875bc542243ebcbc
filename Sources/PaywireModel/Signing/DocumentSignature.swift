import PaywireWire

/// The operator's signature on a document the device is served and may keep: a placement's or
/// an onboarding's answer, or a fallback bundle file. One contract for both sides: the server
/// signs `message` with its response signing key (Ed25519) and sends it in headers (a bundle's
/// travels beside the file, `paywire-server sign-bundle`); the device rebuilds `message` from
/// what it fetched or was given and checks it, now and whenever it reads a kept copy back.
///
/// The message is the UTF-8 text `paywire-document-signature-v1` LF kind LF id LF revision LF,
/// then the document's exact bytes. A document is the same for every device and is kept, so no
/// request nonce and no time are signed: a cached copy, or the bundle in the app's files, is
/// checked again offline. The kind and id stop one placement's signed answer standing for
/// another's (or an onboarding's for a paywall's); the revision (the ETag, without a `W/`)
/// binds the tag the device revalidates with to the bytes it names. Every part before the
/// document is a single line (ids and tags hold no line break: the device refuses them), so
/// the layout cannot be read two ways.
public enum DocumentSignature {
    /// Answer: the Ed25519 signature, base64.
    public static let signatureHeader = "x-paywire-document-signature"
    /// Answer: the id of the key that signed.
    public static let keyIdHeader = "x-paywire-document-key-id"
    /// The kind of a fallback bundle file (placements and onboardings are their collection's name).
    public static let bundleKind = "fallback_bundle"

    private static let context = Array("paywire-document-signature-v1\n".utf8)

    /// The bytes the signature covers.
    public static func message(kind: String, id: String, revision: String, document: [UInt8]) -> [UInt8] {
        var bytes = context
        bytes.reserveCapacity(context.count + kind.utf8.count + id.utf8.count + revision.utf8.count + document.count + 3)
        bytes += Array("\(kind)\n\(id)\n\(ResponseSignature.signedETag(revision))\n".utf8)
        bytes += document
        return bytes
    }

    /// Whether a part can stand on one line of the message.
    public static func isSingleLine(_ text: String) -> Bool { !text.utf8.contains(0x0A) && !text.utf8.contains(0x0D) }
}
