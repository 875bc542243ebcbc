import PaywireWire

/// A verified backend answer as the device keeps it beside the profile it gave: every part the
/// signature covers, so it can be checked again when the profile is read back
/// (`ResponseSignature.message`). A value; its stored form is `json` and `init(json:)`.
package struct SignedAnswer: Equatable, Sendable {
    package let keyId: String
    package let signature: [UInt8]
    package let nonce: String
    package let signedAt: WideInt
    package let status: Int
    package let method: String
    package let path: String
    package let etag: String
    package let body: [UInt8]
    /// The certificate of the signing key, when a pinned root vouched for it (`SigningKeyCertificate`).
    package let certificate: SigningKeyCertificate?

    package init(keyId: String, signature: [UInt8], nonce: String, signedAt: WideInt, status: Int, method: String, path: String,
                 etag: String, body: [UInt8], certificate: SigningKeyCertificate? = nil) {
        self.keyId = keyId
        self.signature = signature
        self.nonce = nonce
        self.signedAt = signedAt
        self.status = status
        self.method = method
        self.path = path
        self.etag = etag
        self.body = body
        self.certificate = certificate
    }

    /// The bytes its signature covers.
    package var message: [UInt8] {
        ResponseSignature.message(nonce: nonce, signedAt: signedAt, status: status, method: method, path: path, etag: etag, body: body)
    }

    /// The `profile` object its body carries (every answer that carries access has one), or nil.
    package var profile: JSONObject? {
        guard !body.isEmpty, case .object(let document)? = try? JSONParser.parse(body),
              case .object(let profile)? = document["profile"] else { return nil }
        return profile
    }

    /// The stored form: the body and the signature in base64, so the bytes come back exact.
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("key_id", .string(keyId)), ("signature", .string(Base64.encode(signature))), ("nonce", .string(nonce)),
            ("signed_at", .number(JSONNumber(signedAt))), ("status", .number(JSONNumber(status))), ("method", .string(method)),
            ("path", .string(path)), ("etag", .string(etag)), ("body", .string(Base64.encode(body))),
        ]
        if let certificate { members.append(("certificate", .string(certificate.text))) }
        return .object(JSONObject(members))
    }

    /// Reads the stored form; nil when any part is missing or malformed (then nothing it would
    /// have covered counts as covered).
    package init?(json value: JSONValue?) {
        guard case .object(let fields)? = value else { return nil }
        func text(_ key: String) -> String? {
            if case .string(let text)? = fields[key] { return text }
            return nil
        }
        func number(_ key: String) -> WideInt? {
            if case .number(let number)? = fields[key] { return number.wideValue }
            return nil
        }
        guard let keyId = text("key_id"), let signature = text("signature").flatMap(Base64.decode), let nonce = text("nonce"),
              let signedAt = number("signed_at"), let status = number("status").flatMap({ Int(exactly: $0) }), let method = text("method"),
              let path = text("path"), let etag = text("etag"), let body = text("body").flatMap(Base64.decode) else { return nil }
        var certificate: SigningKeyCertificate?
        if let text = text("certificate") {
            guard let read = SigningKeyCertificate(text: text) else { return nil }
            certificate = read
        }
        self.init(keyId: keyId, signature: signature, nonce: nonce, signedAt: signedAt, status: status, method: method,
                  path: path, etag: etag, body: body, certificate: certificate)
    }
}
