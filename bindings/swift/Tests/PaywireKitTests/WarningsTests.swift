import Foundation
import XCTest

@testable import PaywireKit

/// What went otherwise than asked reaches `PaywireWarnings.handler`; a near miss of a
/// configuration key is refused, naming the key it likely meant.
final class WarningsTests: XCTestCase {
    /// The warnings told while `body` runs. Tests of this class do not run at the same time as
    /// each other (XCTest runs a class's tests in turn).
    private func warnings(of body: () throws -> Void) rethrows -> [String] {
        let seen = Locked<[String]>([])
        let previous = PaywireWarnings.handler
        PaywireWarnings.handler = { message in seen.withLock { $0.append(message) } }
        defer { PaywireWarnings.handler = previous }
        try body()
        return seen.withLock { $0 }
    }

    func testAnUnknownConfigurationKeyIsAWarningNamingIt() throws {
        let seen = try warnings { try PaywireClient(configurationJSON: #"{"profile_id": "w", "colour": "blue"}"#).close() }
        XCTAssertEqual(seen.count, 1)
        XCTAssertTrue(seen.first?.contains("colour") == true, "\(seen)")
        XCTAssertEqual(try warnings { try PaywireClient(configurationJSON: #"{"profile_id": "w"}"#).close() }, [])
    }

    func testANearMissOfAConfigurationKeyIsRefusedWithTheKeyItLikelyMeant() {
        XCTAssertThrowsError(try PaywireClient(configurationJSON: #"{"profile_id": "w", "fallbak": {"path": "b.json"}}"#)) { error in
            let refused = error as? PaywireError
            XCTAssertEqual(refused?.code, .wrongParam)
            XCTAssertEqual(refused?.details["did_you_mean"]?.stringValue, "fallback")
        }
    }

    func testAPaywallServedBecauseTheBackendRefusedTheKeyIsAWarning() throws {
        let paywall = try JSONValue(parsingBytes: Array(
            #"{"paywall_id": "p", "source": "fallback", "backend_error": {"status": 401, "code": "unauthorized"}}"#.utf8))
        let seen = warnings { PaywireWarnings.report(paywall) }
        XCTAssertEqual(seen.count, 1)
        XCTAssertTrue(seen.first?.contains("HTTP 401, unauthorized") == true, "\(seen)")
        let served = try JSONValue(parsingBytes: Array(#"{"paywall_id": "p"}"#.utf8))
        XCTAssertEqual(warnings { PaywireWarnings.report(served) }, [])
    }
}
