import Hummingbird
import HTTPTypes
import ServerDomain
import ServerStore

/// The router and the table of its routes: every route added here names its door, is checked
/// at it before its handler runs, and is what a `405` knows. What an operator does to a
/// customer's data through an audited door is kept before the answer leaves: a record that
/// cannot be kept fails the request rather than answer unrecorded. Every door but `anyone`'s is
/// rate-limited per client address before it is checked, a device's requests per the profile
/// credential they carry, and an operator's requests per key after (`RateGates`).
struct ServerRoutes {
    let router: Router<ServerContext>
    let table: RouteTable
    let doors: DoorKeeper
    let audit: AuditTrail
    let limits: RateGates

    /// Adds a route. Its handler is given the request read once (`RouteInput`): the body up to
    /// `bodyLimit` bytes (nil: the route takes none), the path's parameters percent-decoded, the
    /// viewer its door let in. A request that cannot be read so is `400 invalid_request`.
    func add(_ method: HTTPRequest.Method, _ path: String, door: Door, bodyLimit: Int? = nil,
             _ handler: @escaping @Sendable (RouteInput) async throws -> Response) {
        table.add(method, path)
        let parameterNames = RouteInput.parameterNames(path)
        let doors = self.doors, audit = self.audit, limits = self.limits
        let action = "\(method.rawValue) \(path)", audited = AuditRecord.isAudited(door.operatorScope), limited = door != .anyone
        let credentialHeader = HTTPField.Name(ProfileCredentials.header)
        router.on(RouterPath(path), method: method) { request, context in
            let address = context.clientAddress
            if limited, let refusal = limits.address(address) { return refusal }
            // A device's requests count against its credential too (an app route carrying one).
            if door == .app, let credentialHeader, let credential = request.headers[credentialHeader],
               let refusal = limits.device(credentialDigest: SecretToken.digest(of: Array(credential.utf8))) {
                return refusal
            }
            switch try await doors.check(door, request, from: address) {
            case .refused(let response):
                return response
            case .open(let viewer):
                if let viewer, let refusal = limits.operatorKey(viewer.keyId) { return refusal }
                var context = context
                context.viewer = viewer
                let response: Response
                do {
                    response = try await handler(try await RouteInput.read(request, context, parameterNames: parameterNames, limit: bodyLimit))
                } catch let problem as RouteInput.Problem {
                    response = Answer.invalid(problem.message).response
                }
                if audited, let viewer {
                    // Decoded as the handler read them, so a search for the customer finds the record.
                    let parameters = context.parameters.map { (String($0.key), URLComponent.decoded($0.value) ?? String($0.value)) }
                    try await audit.keep(viewer, action, AuditRecord.subject(parameters, profileQuery: request.uri.queryParameters.get("profile_id")),
                                         status: Int(response.status.code))
                }
                return response
            }
        }
    }
}

/// Where audit records go, with the time each is kept at.
struct AuditTrail: Sendable {
    let store: any Storage
    let clock: any ServerClock

    func keep(_ viewer: Viewer, _ action: String, _ subject: String, status: Int) async throws {
        try await store.keepAudit(AuditRecord(at: clock.nowMilliseconds(), keyId: viewer.keyId, action: action, subject: subject, status: status))
    }
}
