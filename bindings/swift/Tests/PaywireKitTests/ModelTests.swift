import Foundation
import XCTest

@testable import PaywireKit

final class ModelTests: XCTestCase {
    private func paywallJSON(extra: String = "") -> String {
        #"{"placement": {"developer_id": "main", "audience_name": "All", "revision": 1, "ab_test_name": "t", "placement_audience_version_id": "v"}, "paywall_id": "pw", "paywall_name": "Main", "variation_id": "a", "remote_config": null, "products": [{"vendor_product_id": "m", "access_level_id": null, "product_type": "autorenewable", "future": 1}], "response_created_at": 1700000000000, "request_locale": "en", "locale": null, "dismiss_on_purchase": true, "post_purchase": {"type": "deep_link", "url": "app://x"}, "builder": null, "dismiss_on_restore": false"#
            + extra + "}"
    }

    func testAPaywallReadsAndWritesBackWhatTheLibraryWrote() throws {
        let json = try JSONValue(parsing: paywallJSON(extra: #", "newer_member": {"a": [1, 2.50]}"#))
        let paywall = try Paywall(json: json)
        XCTAssertEqual(paywall.paywallId, "pw")
        XCTAssertEqual(paywall.products.first?.productType, .autorenewable)
        XCTAssertEqual(paywall.unknownMembers["newer_member"], try JSONValue(parsing: #"{"a": [1, 2.5]}"#))
        XCTAssertEqual(paywall.products.first?.unknownMembers["future"], 1)
        XCTAssertEqual(paywall.jsonValue, json)
        guard case .deepLink(let link)? = paywall.postPurchase else { return XCTFail("post_purchase is a deep link") }
        XCTAssertEqual(link.url, "app://x")
    }

    func testARequiredMemberMissingIsNamedWithItsPath() {
        let text = paywallJSON().replacingOccurrences(of: #""developer_id": "main", "#, with: "")
        XCTAssertThrowsError(try Paywall(json: JSONValue(parsing: text))) { error in
            XCTAssertEqual((error as? JSONShapeError)?.path, ["placement", "developer_id"])
        }
    }

    func testAnEnumValueANewerLibrarySendsIsKept() throws {
        XCTAssertEqual(try ProductType(json: "subscription_plus"), .unknown("subscription_plus"))
        XCTAssertEqual(ProductType.unknown("subscription_plus").jsonValue, "subscription_plus")
        XCTAssertEqual(ErrorCode(rawValue: "capped"), .unknown("capped"))
        // Equal by their strings: a value built as unknown equals the listed case of that string.
        XCTAssertEqual(ErrorCode.unknown("not_found"), .notFound)
        XCTAssertEqual(Set([ErrorCode.unknown("not_found"), .notFound]).count, 1)
        // A listed "unknown" is held by the catch-all, which `case .unknown:` matches.
        XCTAssertEqual(CancellationReason(rawValue: "unknown"), .unknown("unknown"))
        XCTAssertEqual(IntroOfferEligibility(rawValue: "unknown").rawValue, "unknown")
    }

    func testAnUnknownTaggedVariantIsKeptWhole() throws {
        let json = try JSONValue(parsing: #"{"type": "survey", "survey_id": "s1"}"#)
        let value = try PostPurchase(json: json)
        XCTAssertEqual(value, .unknown(json))
        XCTAssertEqual(value.jsonValue, json)
    }

    func testAnUnknownEventKeepsItsNameAndMembers() throws {
        let json = try JSONValue(parsing: #"{"event": "paywall_view_did_levitate", "seq": 9, "height": 2}"#)
        let event = try PaywireEvent(json: json)
        XCTAssertEqual(event.name, "paywall_view_did_levitate")
        XCTAssertEqual(event.seq, 9)
        guard case .unknown(let name, let kept) = event else { return XCTFail("an unknown event") }
        XCTAssertEqual(name, "paywall_view_did_levitate")
        XCTAssertEqual(kept, json)
    }

    func testPricesAreDecimalsFromTheNumbersText() throws {
        let price = try Price(json: JSONValue(parsing: #"{"amount": 0.1, "currency_code": "USD", "currency_symbol": "$", "localized_string": "$0.10"}"#))
        XCTAssertEqual(price.amount, Decimal(string: "0.1"))
        XCTAssertEqual(price.amount * 3, Decimal(string: "0.3"))  // 0.1 * 3 through Double is 0.30000000000000004
    }

    func testAStorePriceKeepsItsTextBothWays() throws {
        XCTAssertEqual(try DecimalText(json: "149.00").jsonValue, "149.00")
        XCTAssertEqual(try DecimalText(json: JSONValue(parsing: "9.99")).jsonValue, try JSONValue(parsing: "9.99"))
        XCTAssertEqual(DecimalText("59.99")?.value, Decimal(string: "59.99"))
        XCTAssertNil(DecimalText("9,99"))
    }

    func testAbsentAndNullDifferWhereTheSchemaLetsThem() throws {
        let clear = ProfileParameters(email: .some(nil), firstName: "Ada")
        XCTAssertEqual(clear.jsonValue, ["email": nil, "first_name": "Ada"])
        let read = try ProfileParameters(json: ["email": nil])
        XCTAssertEqual(read.email, .some(nil))
        XCTAssertEqual(read.firstName, .none)
    }

    func testModelsAreCodableThroughFoundation() throws {
        let paywall = try Paywall(json: JSONValue(parsing: paywallJSON()))
        let data = try JSONEncoder().encode(paywall)
        XCTAssertEqual(try JSONDecoder().decode(Paywall.self, from: data), paywall)
    }

    func testAPaywallActionReadsAsTheSeedsEnum() throws {
        let terms = try XCTUnwrap(URL(string: "https://example.com/terms"))
        XCTAssertEqual(PaywallAction(ViewAction(type: .openUrl, value: "https://example.com/terms")), .openURL(terms))
        XCTAssertEqual(PaywallAction(ViewAction(type: .custom, value: "login")), .custom(id: "login"))
        XCTAssertEqual(PaywallAction(ViewAction(type: .unknown("shake"), value: nil)), .unknown(type: "shake", value: nil))
        XCTAssertEqual(PaywallAction.custom(id: "login").viewAction, ViewAction(type: .custom, value: "login"))
    }
}
