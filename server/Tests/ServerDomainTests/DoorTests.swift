import Hummingbird
import HTTPTypes
import NIOCore
import ServerDomain
import Testing
@testable import paywire_server

/// The doors on their own: which credential each takes, and the 401 and 403 of the others.
@Suite struct DoorTests {
    private struct FixedClock: ServerClock {
        func nowMilliseconds() -> Int { 1_800_000_000_000 }
    }

    private static let staffKey = "staff-secret-1", appKey = "app-public-1"

    private static func keeper(appKeys: [String] = [appKey]) -> DoorKeeper {
        let staff = OperatorKey(id: "ana", digest: APIKeys.digest(of: staffKey), scopes: [.resultsRead, .dashboard])
        return DoorKeeper(appKeys: APIKeys(digests: appKeys.map { APIKeys.digest(of: $0) }),
                          operatorKeys: OperatorKeys(keys: [staff]), pushTokens: nil, sessions: nil, clock: FixedClock())
    }

    private static func request(_ authorization: String?) -> Request {
        var fields = HTTPFields()
        if let authorization { fields[.authorization] = authorization }
        let head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/", headerFields: fields)
        return Request(head: head, body: RequestBody(buffer: ByteBuffer()))
    }

    private static func status(_ door: Door, _ authorization: String?, appKeys: [String] = [appKey]) -> Int? {
        keeper(appKeys: appKeys).refusal(door, request(authorization)).map { Int($0.status.code) }
    }

    @Test func anOperatorKeyOpensTheScopesItHoldsOnly() throws {
        #expect(Self.status(.operator(.resultsRead), "Bearer \(Self.staffKey)") == nil)
        #expect(Self.status(.operator(.dashboard), "Bearer \(Self.staffKey)") == nil)
        #expect(Self.status(.operator(.customersRead), "Bearer \(Self.staffKey)") == 403)
        #expect(Self.status(.operator(.development), "Bearer \(Self.staffKey)") == 403)
    }

    @Test func theAppsKeyOpensNoOperatorDoorAndNoKeyOpensNone() throws {
        for authorization in [nil, "Api-Key \(Self.appKey)", "Bearer \(Self.appKey)", "Bearer wrong", "Api-Key \(Self.staffKey)", Self.staffKey] {
            #expect(Self.status(.operator(.resultsRead), authorization) == 401)
        }
    }

    @Test func theDeviceDoorTakesTheAppsKeyAndIsOpenOnlyWithoutAppKeys() throws {
        #expect(Self.status(.app, "Api-Key \(Self.appKey)") == nil)
        for authorization in [nil, "Bearer \(Self.staffKey)", "Api-Key wrong", "api-key \(Self.appKey)"] {
            #expect(Self.status(.app, authorization) == 401)
        }
        #expect(Self.status(.app, nil, appKeys: []) == nil)
        #expect(Self.status(.operator(.dashboard), nil, appKeys: []) == 401)
    }

    @Test func withoutPushTokensPlaysRouteTakesAnOperatorKeyWithNotificationsWrite() throws {
        #expect(Self.status(.playPush, "Bearer \(Self.staffKey)") == 403)
        #expect(Self.status(.playPush, "Api-Key \(Self.appKey)") == 401)
    }

    @Test func aStoresRouteIsLeftToTheProofInsideTheRequest() throws {
        #expect(Self.status(.storeSignature, nil) == nil)
    }

    @Test func anOperatorKeyIsAnIdADigestAndKnownScopes() {
        let digest = String(repeating: "ab", count: 32)
        guard case .success(let key) = OperatorKey.parse("ci:\(digest):results:read, customers:write") else {
            Issue.record("a well-formed key was refused")
            return
        }
        #expect(key.id == "ci" && key.scopes == [.resultsRead, .customersWrite])
        for (text, says) in [("ci:\(digest):results:reed", "'results:reed' is not a scope"), ("ci:abc:dashboard", "64 hex digits"),
                             ("ci:\(digest):", "names no scope"), ("ci", "ID:SHA256HEX"), (":\(digest):dashboard", "ID:SHA256HEX")] {
            guard case .failure(let problem) = OperatorKey.parse(text) else {
                Issue.record("\(text) was taken")
                continue
            }
            #expect(problem.description.contains(says), "\(text): \(problem.description)")
        }
    }
}
