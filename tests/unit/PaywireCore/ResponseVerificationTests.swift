import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// A stand-in for Ed25519 whose signature depends on the key and on every byte of the message
/// (MD5 of both, four times), so the verifier's own rules can be tested without cryptography:
/// which bytes are covered, which key is asked, when an answer is too old. The real algorithm,
/// through libcrypto, is what the conformance vectors check (tests/conformance/vectors/verification.json).
final class DigestSignatures: SignatureVerifier {
    static func sign(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        let digest = MD5.digest(key + message)
        return digest + digest + digest + digest
    }

    func isValidEd25519(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        signature == DigestSignatures.sign(message, key: publicKey)
    }
}

@Suite struct ResponseVerificationTests {
    static let key = [UInt8](repeating: 7, count: 32)
    static let otherKey = [UInt8](repeating: 9, count: 32)

    func config(_ mode: String, keys: [(String, [UInt8])] = [("k1", key)]) throws -> VerificationConfig {
        let list = keys.map { JSONValue.object(JSONObject([("id", .string($0.0)), ("key", .string(Base64.encode($0.1)))])) }
        return try VerificationConfig(Fields(JSONObject([("mode", .string(mode)), ("public_keys", .array(list))]), path: "response_verification"))
    }

    func verifier(_ mode: String = "enforced", clock: ManualClock = ManualClock(wall: 0)) throws -> ResponseVerifier {
        ResponseVerifier(config: try config(mode), signatures: DigestSignatures(), random: CountingRandom(), clock: clock)
    }

    /// An answer signed as a server signs it, for `nonce`, by `key` under `keyId`.
    func answer(nonce: String, body: String = "{\"profile\":{}}", status: Int = 200, path: String = "/v1/profiles/p",
                signedAt: Int = 1_000, key: [UInt8] = key, keyId: String = "k1") -> HTTPResponse {
        let message = ResponseSignature.message(nonce: nonce, signedAt: signedAt, status: status, method: "GET", path: path,
                                                etag: "\"e\"", body: Array(body.utf8))
        return HTTPResponse(status: status, headers: [("ETag", "\"e\""), ("X-Paywire-Signature", Base64.encode(DigestSignatures.sign(message, key: key))),
                                                      ("x-paywire-signature-key-id", keyId), ("x-paywire-signed-at", String(signedAt))],
                            body: Array(body.utf8))
    }

    @Test func base64RoundTripsAndRefusesWhatIsNotCanonical() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        #expect(Base64.encode(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw==")
        for bad in ["YQ", "Y===", "YR==", "YW5 5", "YW55\n", "=YW5", "YQ==YQ=="] { #expect(Base64.decode(bad) == nil) }
    }

    @Test func theConfigWantsKeysOf32BytesUnlessDisabled() throws {
        #expect(try config("disabled", keys: []).mode == .disabled)
        #expect(throws: WireError.self) { try config("enforced", keys: []) }
        #expect(throws: WireError.self) { try config("informational", keys: [("k1", [1, 2, 3])]) }
        #expect(throws: WireError.self) { try config("enforced", keys: [("k 1", Self.key)]) }
        #expect(throws: WireError.self) { try config("enforced", keys: [("k1", Self.key), ("k1", Self.otherKey)]) }
        #expect(throws: WireError.self) { try config("strict") }
    }

    @Test func eachRequestCarriesAFreshNonceAndTheTrustedKeyIds() throws {
        let verifier = try verifier()
        let first = verifier.requestHeaders(), second = verifier.requestHeaders()
        #expect(first.nonce != second.nonce)
        #expect(Base64.decode(first.nonce)?.count == 16)
        #expect(first.headers.map(\.name) == ["x-paywire-nonce", "x-paywire-key-ids"])
        #expect(first.headers[1].value == "k1")
    }

    @Test func anAnswerSignedForThisRequestIsVerified() throws {
        let verifier = try verifier()
        let checked = verifier.check(answer(nonce: "n1"), nonce: "n1", method: "GET", path: "/v1/profiles/p")
        guard case .success(let signed) = checked else { Issue.record("not verified: \(checked)"); return }
        #expect(signed.signedAt == 1_000 && signed.etag == "\"e\"" && verifier.holds(signed))
    }

    @Test func whatTheSignatureDoesNotCoverFails() throws {
        let verifier = try verifier()
        func failure(_ response: HTTPResponse, nonce: String = "n1", path: String = "/v1/profiles/p") -> ResponseVerifier.Failure? {
            if case .failure(let failure) = verifier.check(response, nonce: nonce, method: "GET", path: path) { return failure }
            return nil
        }
        #expect(failure(answer(nonce: "n1"), nonce: "n2") == .invalid)
        #expect(failure(answer(nonce: "n1", path: "/v1/profiles/other")) == .invalid)
        #expect(failure(answer(nonce: "n1", key: Self.otherKey)) == .invalid)
        #expect(failure(answer(nonce: "n1", keyId: "k2")) == .unknown_key)
        #expect(failure(HTTPResponse(status: 200, headers: [], body: [])) == .missing)
        var edited = answer(nonce: "n1")
        edited = HTTPResponse(status: 200, headers: edited.headers, body: Array("{\"profile\":{\"is_test_user\":true}}".utf8))
        #expect(failure(edited) == .invalid)
        let malformed = HTTPResponse(status: 200, headers: [("x-paywire-signature", "abc"), ("x-paywire-signature-key-id", "k1"),
                                                            ("x-paywire-signed-at", "1000")], body: [])
        #expect(failure(malformed) == .malformed)
    }

    /// A signed answer to `method path` for `nonce`, without an ETag.
    func signed(_ method: String, _ path: String, nonce: String, body: String) -> HTTPResponse {
        let message = ResponseSignature.message(nonce: nonce, signedAt: 1_000, status: 200, method: method, path: path, etag: "",
                                                body: Array(body.utf8))
        return HTTPResponse(status: 200, headers: [("x-paywire-signature", Base64.encode(DigestSignatures.sign(message, key: Self.key))),
                                                   ("x-paywire-signature-key-id", "k1"), ("x-paywire-signed-at", "1000")],
                            body: Array(body.utf8))
    }

    /// F11: a request rewritten on the way to name another profile gets a genuine answer, signed
    /// over this request's nonce and route, about that profile: it is not this request's answer.
    @Test func anAnswerAboutAnotherProfileThanTheRequestNamedFails() throws {
        func failure(_ method: String, _ path: String, _ body: String, about: String?) throws -> ResponseVerifier.Failure? {
            let checked = try verifier().check(signed(method, path, nonce: "n", body: body), nonce: "n", method: method, path: path, about: about)
            if case .failure(let failure) = checked { return failure }
            return nil
        }
        let mine = #"{"profile_id":"p","profile":{}}"#, theirs = #"{"profile_id":"payer","profile":{}}"#
        #expect(try failure("POST", "/v1/restores", mine, about: "p") == nil)
        #expect(try failure("POST", "/v1/restores", theirs, about: "p") == .other_profile)
        #expect(try failure("POST", "/v1/purchases", #"{"profile":{}}"#, about: "p") == .other_profile, "an answer naming no profile")
        #expect(try failure("POST", "/v1/restores", #"{"profile_id":"Jose\u0301","profile":{}}"#, about: "Jos\u{e9}") == .other_profile)
        #expect(try failure("GET", "/v1/profiles/Jos%C3%A9%201", #"{"profile":{}}"#, about: "Jos\u{e9} 1") == nil, "named by its path")
        #expect(try failure("POST", "/v1/profiles/p/identity", theirs, about: nil) == nil, "an identity's names the customer's profile")
        #expect(try failure("POST", "/v1/redemptions", #"{"error":{"code":"x"}}"#, about: "p") == nil, "no profile, no access")
    }

    @Test func aProxyThatWeakensTheETagChangesNothingSigned() throws {
        let signed = answer(nonce: "n1")
        let weakened = HTTPResponse(status: 200, headers: signed.headers.map { $0.name == "ETag" ? ("ETag", "W/\"e\"") : $0 }, body: signed.body)
        guard case .success = try verifier().check(weakened, nonce: "n1", method: "GET", path: "/v1/profiles/p") else {
            Issue.record("a weak ETag failed the signature"); return
        }
        let changed = HTTPResponse(status: 200, headers: signed.headers.map { $0.name == "ETag" ? ("ETag", "\"other\"") : $0 }, body: signed.body)
        guard case .failure(.invalid) = try verifier().check(changed, nonce: "n1", method: "GET", path: "/v1/profiles/p") else {
            Issue.record("another ETag was taken"); return
        }
    }

    @Test func anAnswerSignedBeforeOneAlreadyVerifiedIsTooOld() throws {
        let clock = ManualClock(wall: 0)
        let verifier = try verifier(clock: clock)
        guard case .success = verifier.check(answer(nonce: "a", signedAt: 10_000_000), nonce: "a", method: "GET", path: "/v1/profiles/p") else {
            Issue.record("the first answer should verify"); return
        }
        clock.elapsed = 60_000
        // Within the tolerance of the server's time counted forward: still fine.
        if case .failure(let failure) = verifier.check(answer(nonce: "b", signedAt: 10_000_000), nonce: "b", method: "GET", path: "/v1/profiles/p") {
            Issue.record("an answer within the tolerance failed: \(failure)")
        }
        let old = 10_060_000 - ResponseVerifier.tolerance - 1
        guard case .failure(.too_old) = verifier.check(answer(nonce: "c", signedAt: old), nonce: "c", method: "GET", path: "/v1/profiles/p") else {
            Issue.record("an answer older than one verified was taken"); return
        }
    }

    // MARK: - The profile kept on disk

    func backendGrant(_ product: String, expiresAt: Int) -> Profile.Grant {
        var grant = Profile.Grant(vendorProductId: product, activatedAt: 0, expiresAt: expiresAt)
        grant.verified = true
        return grant
    }

    /// A profile as a verified answer granting `premium` until `expiresAt` left it, and that
    /// answer (about profile `p`, by its path).
    func keptProfile(expiresAt: Int = 5_000_000, signedAt: Int = 3_000, profileId: String = "p") -> Profile {
        let body = "{\"profile\":{\"access_levels\":{\"premium\":{\"vendor_product_id\":\"monthly\",\"activated_at\":\"1970-01-01T00:00:00.000Z\","
            + "\"expires_at\":\"\(ISODate.format(milliseconds: expiresAt))\"}}}}"
        let message = ResponseSignature.message(nonce: "n", signedAt: signedAt, status: 200, method: "GET", path: "/v1/profiles/p", etag: "",
                                                body: Array(body.utf8))
        var profile = Profile(profileId: profileId, customerUserId: nil)
        profile.accessLevels = [("premium", backendGrant("monthly", expiresAt: expiresAt))]
        profile.backendAnsweredAt = 9_000_000
        profile.signedAnswer = SignedAnswer(keyId: "k1", signature: DigestSignatures.sign(message, key: Self.key), nonce: "n",
                                            signedAt: signedAt, status: 200, method: "GET", path: "/v1/profiles/p", etag: "",
                                            body: Array(body.utf8))
        return profile
    }

    func reread(_ profile: Profile, _ mode: String) throws -> StoredProfileCheck.Outcome {
        let verifier = try verifier(mode)
        // Through the stored form, as a client starting on it reads it.
        let read = try #require(Profile.fromRecord(profile.record))
        return StoredProfileCheck.check(read, mode: verifier.mode, holds: verifier.holds)
    }

    @Test func aKeptProfileItsSignatureCoversIsVerifiedWhenReadBack() throws {
        let outcome = try reread(keptProfile(), "enforced")
        #expect(outcome.uncovered.isEmpty && outcome.signedAt == 3_000)
        #expect(outcome.profile.verification == .verified)
        #expect(outcome.profile.accessLevels.map(\.grant.verification) == [.verified])
        // Offline access counts from the signed time, not from what the file says.
        #expect(outcome.profile.backendAnsweredAt == 3_000)
    }

    @Test func anEditedGrantIsFailedInformationalAndDroppedEnforced() throws {
        var edited = keptProfile()
        edited.accessLevels[0].grant.expiresAt = 9_999_999_999
        edited.accessLevels.append(("pro", backendGrant("lifetime", expiresAt: 9_999_999_999)))
        let informational = try reread(edited, "informational")
        #expect(informational.uncovered == ["access_levels.premium", "access_levels.pro"])
        #expect(informational.profile.accessLevels.map(\.grant.verification) == [.failed, .failed])
        #expect(informational.profile.verification == .failed)
        let enforced = try reread(edited, "enforced")
        #expect(enforced.profile.accessLevels.isEmpty && enforced.profile.verification == .failed)
        let disabled = try reread(edited, "disabled")
        #expect(disabled.uncovered.isEmpty && disabled.profile.accessLevels.map(\.grant.verification) == [.not_requested, .not_requested])
    }

    @Test func anEditedSignedAnswerCoversNothing() throws {
        var edited = keptProfile()
        let original = try #require(edited.signedAnswer)
        edited.signedAnswer = SignedAnswer(keyId: "k1", signature: original.signature, nonce: "n", signedAt: 99_999, status: 200,
                                           method: "GET", path: "/v1/profiles/p", etag: "", body: original.body)
        let outcome = try reread(edited, "enforced")
        #expect(outcome.profile.accessLevels.isEmpty && outcome.profile.verification == .failed && outcome.signedAt == nil)
    }

    @Test func aKeptAnswerAboutAnotherProfileCoversNothing() throws {
        let copied = try reread(keptProfile(profileId: "q"), "enforced")
        #expect(copied.profile.accessLevels.isEmpty && copied.profile.verification == .failed && copied.signedAt == nil)
        #expect(copied.uncovered == ["access_levels.premium"])
    }

    @Test func theDevicesGrantsStandOnlyWhileTheirTransactionWaitsForTheBackend() throws {
        var profile = Profile(profileId: "p", customerUserId: nil)
        var pending = Profile.Grant(vendorProductId: "monthly", activatedAt: 0, expiresAt: nil)
        pending.source = .device
        pending.verification = .store
        pending.transactionId = "t-waiting"
        var forged = pending
        forged.transactionId = "t-made-up"
        profile.accessLevels = [("premium", pending), ("pro", forged)]
        let enforced = StoredProfileCheck.deviceGrants(profile, pending: ["t-waiting"], mode: .enforced)
        #expect(enforced.profile.accessLevels.map(\.id) == ["premium"] && enforced.uncovered == ["access_levels.pro"])
        let informational = StoredProfileCheck.deviceGrants(profile, pending: ["t-waiting"], mode: .informational)
        #expect(informational.profile.accessLevels.map(\.grant.verification) == [.store, .failed])
        #expect(StoredProfileCheck.deviceGrants(profile, pending: [], mode: .disabled).uncovered.isEmpty)
    }
}
