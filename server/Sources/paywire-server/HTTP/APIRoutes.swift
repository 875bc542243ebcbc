import HTTPTypes
import Hummingbird
import PaywireModel
import ServerDomain

/// The operations of `api/openapi.yaml` as plain Hummingbird routes: each reads its request
/// once (`RouteInput`), hands the parts its operation takes to it as parameters, and writes the
/// operation's `Answer`. The spec is the routes' test, not their source
/// (tests/api/test_routes_match_spec.py walks every operation; schemathesis checks answers).
enum APIRoutes {
    /// Every operation, each one value (`APIOperation`): method, path, door, signing, profile
    /// door, and what it does with its input.
    static let operations: [APIOperation] = [
        .plain(.get, "/v1/placements/{placement_id}", .app, document: "placements") { api, input in
            _ = try input.requiredHeader(APIHeader.profileId)
            return api.getPlacement(input.path("placement_id"), .placement, ifNoneMatch: input.header("if-none-match"))
        },
        .plain(.get, "/v1/onboardings/{placement_id}", .app, document: "onboardings") { api, input in
            _ = try input.requiredHeader(APIHeader.profileId)
            return api.getPlacement(input.path("placement_id"), .onboarding, ifNoneMatch: input.header("if-none-match"))
        },
        .device(.get, "/v1/profiles/{profile_id}", signed: true) { api, input in
            _ = try input.requiredHeader(APIHeader.profileId)
            return try await api.getProfile(input.path("profile_id"), ifNoneMatch: input.header("if-none-match"))
        },
        .device(.put, "/v1/profiles/{profile_id}/attributes") { api, input in
            try await api.putProfileData(.attributes, parsed: input.parsed, pathProfileId: input.path("profile_id"))
        },
        .device(.put, "/v1/profiles/{profile_id}/integration-ids") { api, input in
            try await api.putProfileData(.integrationIdentifiers, parsed: input.parsed, pathProfileId: input.path("profile_id"))
        },
        .device(.post, "/v1/attribution") { api, input in try await api.putProfileData(.attribution, parsed: input.parsed, pathProfileId: nil) },
        .device(.post, "/v1/events") { api, input in try await api.postEvents(parsed: input.parsed) },
        .device(.post, "/v1/purchases", signed: true) { api, input in
            try await api.postPurchase(parsed: input.parsed, text: String(decoding: input.body, as: UTF8.self))
        },
        .device(.post, "/v1/restores", signed: true) { api, input in try await api.postRestore(parsed: input.parsed) },
        .device(.post, "/v1/profiles/{profile_id}/identity", signed: true) { api, input in
            try await api.postIdentity(parsed: input.parsed, profileId: input.path("profile_id"), from: input.clientAddress)
        },
        .device(.post, "/v1/offers/sign") { api, input in try await api.signOffer(parsed: input.parsed) },
        .plain(.get, "/v1/experiments/{placement_id}/results", .operator(.resultsRead)) { api, input in
            try await api.getExperimentResults(placementId: input.path("placement_id"))
        },
        .plain(.get, "/v1/app-store/consumption-requests", .operator(.customersRead)) { api, input in
            try await api.getConsumptionRequests(profileId: input.query["profile_id"])
        },
        .plain(.post, "/v1/notifications/test-store", .operator(.notificationsWrite)) { api, input in
            try await api.postTestStoreNotification(body: input.body)
        },
        .plain(.post, "/v1/notifications/app-store", .storeSignature) { api, input in try await api.postAppStoreNotification(body: input.body) },
        .plain(.post, "/v1/notifications/play", .playPush) { api, input in try await api.postPlayNotification(body: input.body) },
        .plain(.post, "/v1/webhooks/stripe", .storeSignature) { api, input in
            try await api.postStripeWebhook(body: input.body, signature: input.header("stripe-signature"))
        },
        .plain(.post, "/v1/web-purchases/{checkout_session_id}/redemption", .operator(.customersWrite)) { api, input in
            try await api.issueRedemptionLink(checkoutSessionId: input.path("checkout_session_id"))
        },
        .device(.post, "/v1/redemptions", signed: true) { api, input in try await api.redeemWebPurchase(parsed: input.parsed) },
    ]

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
        operations.map { "\($0.name) \($0.door.name)" }.joined(separator: "\n")
    }

    /// Runs a call behind the profile door (`ProfileDoor`) when its operation names profiles; a
    /// credential the door issued leaves in the answer's header, unless the operation set one of
    /// its own (an identity that moved the device hands over the customer's profile's).
    private static func run(_ call: APIOperation.Call, of operation: APIOperation, _ api: API, from address: String,
                            credential: String?) async throws -> Answer {
        guard operation.behindProfileDoor else { return try await call.run(api) }
        switch try await api.profileDoor(from: address).check(call.profiles, credential: credential) {
        case .refused(let answer):
            return answer
        case .open(let issued):
            var answer = try await call.run(api)
            if let issued, let name = HTTPField.Name(ProfileCredentials.header), answer.headers[name] == nil {
                answer.headers[name] = issued
            }
            return answer
        }
    }

    /// Registers every operation on `routes`; a request the edge cannot read is `400
    /// invalid_request`, naming why. The answers of signed operations are signed here, once,
    /// over the exact bytes that leave.
    static func register(on routes: ServerRoutes, api: API, maxBodyBytes: Int) {
        for operation in operations {
            let signer = operation.signed ? api.setup.responseSigner : nil
            let document = operation.document.flatMap { kind in api.setup.responseSigner.map { (kind, $0) } }
            routes.add(operation.method, operation.path, door: operation.door, bodyLimit: maxBodyBytes) { input in
                let served = api.serving(input)
                do {
                    let (nonce, trusted) = try signingHeaders(input)
                    var answer = try await run(operation.read(input), of: operation, served, from: input.clientAddress,
                                               credential: input.header(ProfileCredentials.header))
                    if let signer {
                        try answer.sign(with: signer, nonce: nonce ?? "", trusted: trusted, signedAt: api.clock.nowMilliseconds(),
                                        method: operation.method.rawValue, path: input.requestPath)
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
