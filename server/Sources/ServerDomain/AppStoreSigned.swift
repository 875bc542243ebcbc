import PaywireWire

/// Apple's signed data checked as Apple's App Store Server Library checks it: the JWS and its
/// chain (`JWSVerifier`), then whose app and which environment it speaks for. A notification
/// names its app in `data`, `summary` or `externalPurchaseToken`; a transaction in its own
/// `bundleId` and `environment`; renewal info carries only its environment.
package struct AppStoreSigned: Sendable {
    package let verifier: JWSVerifier
    /// `--app-store-bundle-id`: the app whose data this server takes; nil only when no root was
    /// given either (then nothing is trusted anyway).
    package let bundleId: String?
    /// `--app-store-environments`: Apple's names (`Production`, `Sandbox`, `Xcode`, `LocalTesting`).
    package let environments: [String]

    package init(verifier: JWSVerifier, bundleId: String?, environments: [String]) {
        self.verifier = verifier
        self.bundleId = bundleId
        self.environments = environments
    }

    package static let environmentNames = ["Production", "Sandbox", "Xcode", "LocalTesting"]

    /// A verified notification payload (`ResponseBodyV2DecodedPayload`) for this app.
    package func notification(_ jws: String) async throws(SignedProblem) -> JSONValue {
        let payload = try await verifier.verify(jws)
        if let data = payload["data"], data.isObject {
            try check(app: data["bundleId"], environment: data["environment"], of: "data")
        } else if let summary = payload["summary"], summary.isObject {
            try check(app: summary["bundleId"], environment: summary["environment"], of: "summary")
        } else if let token = payload["externalPurchaseToken"], token.isObject {
            // The token names no environment: a sandbox token's id starts with SANDBOX.
            let sandbox = token["externalPurchaseId"]?.asString?.hasPrefix("SANDBOX") ?? false
            try check(app: token["bundleId"], environment: .string(sandbox ? "Sandbox" : "Production"), of: "externalPurchaseToken")
        } else {
            throw SignedProblem("invalid_payload", "the notification carries no data, summary or externalPurchaseToken object")
        }
        return payload
    }

    /// A verified transaction (`JWSTransactionDecodedPayload`) of this app.
    package func transaction(_ jws: String, path: String = "signedTransactionInfo") async throws(SignedProblem) -> JSONValue {
        let payload = try await verifier.verify(jws)
        try check(app: payload["bundleId"], environment: payload["environment"], of: path)
        return payload
    }

    /// Verified renewal info (`JWSRenewalInfoDecodedPayload`): it names no app, only its environment.
    package func renewal(_ jws: String) async throws(SignedProblem) -> JSONValue {
        let payload = try await verifier.verify(jws)
        try check(environment: payload["environment"], of: "signedRenewalInfo")
        return payload
    }

    private func check(app: JSONValue?, environment: JSONValue?, of path: String) throws(SignedProblem) {
        guard let bundleId else {
            throw SignedProblem("wrong_bundle_id", "this server was started without --app-store-bundle-id: no app's data is taken")
        }
        guard let app = app?.asString else { throw SignedProblem("invalid_payload", "\(path).bundleId is required") }
        guard app == bundleId else {
            throw SignedProblem("wrong_bundle_id", "\(path).bundleId '\(app)' is not this server's app (--app-store-bundle-id)")
        }
        try check(environment: environment, of: path)
    }

    private func check(environment: JSONValue?, of path: String) throws(SignedProblem) {
        guard let name = environment?.asString else { throw SignedProblem("invalid_payload", "\(path).environment is required") }
        guard environments.contains(name) else {
            throw SignedProblem("wrong_environment",
                                "\(path).environment '\(name)' is not one this server takes (--app-store-environments \(environments.joined(separator: ",")))")
        }
    }
}
