import PaywireWire

/// The backend's signature on an answer that carries access, one contract for both sides: the
/// server signs `message` with its response signing key (Ed25519) and sends the signature in
/// headers; the device rebuilds `message` from the request it sent and the answer it got, and
/// checks it against the public keys of its config (`response_verification`).
///
/// The message is the UTF-8 text `paywire-response-signature-v1` LF nonce LF signed-at LF
/// status SP method SP path LF etag LF, then the body's exact bytes (the ETag without a `W/`). Each part closes a door:
/// the nonce (fresh per request) stops an answer recorded for one request standing for another;
/// the status, method and path (from `/v1/`, as sent) stop a signed answer to another route or
/// another profile's path standing in; the ETag makes a 304 say which profile is unchanged; the
/// time lets the device refuse an answer older than one it already verified. Every part before
/// the body is a single line (the nonce and key ids are visible ASCII, the ETag a header
/// value), so the layout cannot be read two ways.
public enum ResponseSignature {
    /// Request: the nonce the answer must be signed over.
    public static let nonceHeader = "x-paywire-nonce"
    /// Request: the ids of the keys the device trusts, separated by commas (the server signs
    /// with the first of its keys the list names).
    public static let keyIdsHeader = "x-paywire-key-ids"
    /// Answer: the Ed25519 signature, base64.
    public static let signatureHeader = "x-paywire-signature"
    /// Answer: the id of the key that signed.
    public static let keyIdHeader = "x-paywire-signature-key-id"
    /// Answer: when the server signed (ms since the epoch), as signed.
    public static let signedAtHeader = "x-paywire-signed-at"

    /// The longest nonce a server takes, and the longest key id.
    public static let maxNonceLength = 128
    public static let maxKeyIdLength = 64

    private static let context = Array("paywire-response-signature-v1\n".utf8)

    /// The bytes the signature covers.
    public static func message(nonce: String, signedAt: WideInt, status: Int, method: String, path: String, etag: String,
                               body: [UInt8]) -> [UInt8] {
        var bytes = context
        bytes.reserveCapacity(context.count + nonce.utf8.count + path.utf8.count + etag.utf8.count + body.count + 48)
        bytes += Array("\(nonce)\n\(signedAt)\n\(status) \(method) \(path)\n\(signedETag(etag))\n".utf8)
        bytes += body
        return bytes
    }

    /// An ETag as signed: without a weak validator's `W/`, which a proxy that compresses the
    /// answer may add (nginx does) without changing what the tag names.
    public static func signedETag(_ etag: String) -> String { etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag }

    /// A nonce as sent in its header: 1 to 128 visible ASCII characters.
    public static func isValidNonce(_ nonce: String) -> Bool {
        !nonce.isEmpty && nonce.utf8.count <= maxNonceLength && nonce.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// A key id: 1 to 64 of `A-Z a-z 0-9 . _ -` (it travels in a comma-separated header).
    public static func isValidKeyId(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maxKeyIdLength && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
    }
}
