import HTTPTypes
import Hummingbird
import PaywireModel

/// The operations of `api/openapi.yaml` as plain Hummingbird routes: each reads its request
/// once (`RouteInput`), hands the parts its operation takes to it as parameters, and writes the
/// operation's `Answer`. The spec is the routes' test, not their source
/// (tests/api/test_routes_match_spec.py walks every operation; schemathesis checks answers).
enum APIRoutes {
    /// Every operation: its method, path template, and what it does with its input.
    static let operations: [(method: HTTPRequest.Method, path: String, door: Door, run: @Sendable (API, RouteInput) async throws -> Answer)] = [
        (.get, "/v1/placements/{placement_id}", .app, { api, input in
            _ = try input.requiredHeader("x-paywire-profile-id")
            return api.getPlacement(api.setup.placements[input.path("placement_id")], ifNoneMatch: input.header("if-none-match"))
        }),
        (.get, "/v1/onboardings/{placement_id}", .app, { api, input in
            _ = try input.requiredHeader("x-paywire-profile-id")
            return api.getPlacement(api.setup.onboardings[input.path("placement_id")], ifNoneMatch: input.header("if-none-match"))
        }),
        (.get, "/v1/profiles/{profile_id}", .app, { api, input in
            _ = try input.requiredHeader("x-paywire-profile-id")
            return try await api.getProfile(input.path("profile_id"), ifNoneMatch: input.header("if-none-match"))
        }),
        (.put, "/v1/profiles/{profile_id}/attributes", .app, { api, input in
            try await api.putProfileData(.attributes, body: input.body, pathProfileId: input.path("profile_id"))
        }),
        (.put, "/v1/profiles/{profile_id}/integration-ids", .app, { api, input in
            try await api.putProfileData(.integrationIdentifiers, body: input.body, pathProfileId: input.path("profile_id"))
        }),
        (.post, "/v1/attribution", .app, { api, input in try await api.putProfileData(.attribution, body: input.body, pathProfileId: nil) }),
        (.post, "/v1/events", .app, { api, input in try await api.postEvents(body: input.body) }),
        (.post, "/v1/purchases", .app, { api, input in try await api.postPurchase(body: input.body) }),
        (.post, "/v1/restores", .app, { api, input in try await api.postRestore(body: input.body) }),
        (.post, "/v1/profiles/{profile_id}/identity", .app, { api, input in
            try await api.postIdentity(body: input.body, profileId: input.path("profile_id"), from: input.clientAddress)
        }),
        (.post, "/v1/offers/sign", .app, { api, input in try await api.signOffer(body: input.body) }),
        (.get, "/v1/experiments/{placement_id}/results", .operator(.resultsRead), { api, input in
            try await api.getExperimentResults(placementId: input.path("placement_id"))
        }),
        (.get, "/v1/app-store/consumption-requests", .operator(.customersRead), { api, input in
            try await api.getConsumptionRequests(profileId: input.query["profile_id"])
        }),
        (.post, "/v1/notifications/test-store", .operator(.notificationsWrite), { api, input in try await api.postTestStoreNotification(body: input.body) }),
        (.post, "/v1/notifications/app-store", .storeSignature, { api, input in try await api.postAppStoreNotification(body: input.body) }),
        (.post, "/v1/notifications/play", .playPush, { api, input in try await api.postPlayNotification(body: input.body) }),
        (.post, "/v1/webhooks/stripe", .storeSignature, { api, input in
            try await api.postStripeWebhook(body: input.body, signature: input.header("stripe-signature"))
        }),
        (.post, "/v1/web-purchases/{checkout_session_id}/redemption", .operator(.customersWrite), { api, input in
            try await api.issueRedemptionLink(checkoutSessionId: input.path("checkout_session_id"))
        }),
        (.post, "/v1/redemptions", .app, { api, input in try await api.redeemWebPurchase(body: input.body) }),
    ]

    /// The operations whose answers carry access (a profile, or the word that it is unchanged):
    /// each answer of theirs is signed when the server has a response signing key.
    static let signed: Set<String> = ["GET /v1/profiles/{profile_id}", "POST /v1/purchases", "POST /v1/restores",
                                      "POST /v1/profiles/{profile_id}/identity", "POST /v1/redemptions"]

    /// The operations that serve a document the device keeps (`DocumentSignature`), by path,
    /// with the kind it is signed as: their 200 answers are signed when the server has a
    /// response signing key, over the answer and its ETag (no nonce), so a cached copy is
    /// checked again offline.
    static let documents: [String: String] = ["/v1/placements/{placement_id}": "placements",
                                              "/v1/onboardings/{placement_id}": "onboardings"]

    /// A request's nonce and trusted key ids, when it sends them: a header that is sent must be
    /// well formed (`ResponseSignature`), or the request is `400 invalid_request`.
    static func signingHeaders(_ input: RouteInput) throws(RouteInput.Problem) -> (nonce: String?, trusted: String?) {
        let nonce = input.header(ResponseSignature.nonceHeader)
        if let nonce, !ResponseSignature.isValidNonce(nonce) {
            throw RouteInput.Problem(message: "\(ResponseSignature.nonceHeader) must be 1 to \(ResponseSignature.maxNonceLength) visible ASCII characters")
        }
        let trusted = input.header(ResponseSignature.keyIdsHeader)
        if let trusted, trusted.utf8.count > 1100 || !trusted.split(separator: ",", omittingEmptySubsequences: false)
            .allSatisfy({ ResponseSignature.isValidKeyId(String($0)) }) {
            throw RouteInput.Problem(message: "\(ResponseSignature.keyIdsHeader) must be key ids (A-Z a-z 0-9 . _ -) separated by commas")
        }
        return (nonce, trusted)
    }

    /// `METHOD path door` of every operation, one a line (`paywire-server --list-routes`): what
    /// the test holding the routes and their doors to api/openapi.yaml reads.
    static var listing: String {
        operations.map { "\($0.method.rawValue) \($0.path) \($0.door.name)" }.joined(separator: "\n")
    }

    /// Runs a device operation that names a profile once the profile's door opened
    /// (`ProfileDoor`); a credential it issued leaves in the answer's header, unless the
    /// operation set one of its own (an identity that moved the device hands over the
    /// customer's profile's).
    private static func runBehindProfileDoor(_ api: API, _ input: RouteInput,
                                             _ run: @Sendable (API, RouteInput) async throws -> Answer) async throws -> Answer {
        let profiles = ProfileDoor.named(pathProfileId: input.path("profile_id").isEmpty ? nil : input.path("profile_id"), body: input.body)
        switch try await api.profileDoor(from: input.clientAddress).check(profiles, credential: input.header(ProfileCredentials.header)) {
        case .refused(let answer):
            return answer
        case .open(let issued):
            var answer = try await run(api, input)
            if let issued, let name = HTTPField.Name(ProfileCredentials.header), answer.headers[name] == nil {
                answer.headers[name] = issued
            }
            return answer
        }
    }

    /// Registers every operation on `routes`; a request the edge cannot read is `400
    /// invalid_request`, naming why. The answers of `signed` operations are signed here, once,
    /// over the exact bytes that leave.
    static func register(on routes: ServerRoutes, api: API, maxBodyBytes: Int) {
        for (method, path, door, run) in operations {
            let names = path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
            let guarded = door == .app && !path.hasPrefix("/v1/placements/") && !path.hasPrefix("/v1/onboardings/")
            let signer = signed.contains("\(method.rawValue) \(path)") ? api.setup.responseSigner : nil
            let document = documents[path].flatMap { kind in api.setup.responseSigner.map { (kind, $0) } }
            routes.add(method, path, door: door) { request, context in
                do {
                    let input = try await RouteInput.read(request, context, parameterNames: names, limit: maxBodyBytes)
                    let (nonce, trusted) = try signingHeaders(input)
                    var answer = guarded ? try await runBehindProfileDoor(api, input, run) : try await run(api, input)
                    if let signer {
                        try answer.sign(with: signer, nonce: nonce ?? "", trusted: trusted, signedAt: api.clock.nowMilliseconds(),
                                        method: method.rawValue, path: request.uri.path)
                    }
                    if let (kind, documentSigner) = document {
                        try answer.signDocument(with: documentSigner, trusted: trusted, kind: kind, id: input.path("placement_id"))
                    }
                    return answer.response
                } catch let problem as RouteInput.Problem {
                    return Answer.invalid(problem.message).response
                }
            }
        }
    }
}
