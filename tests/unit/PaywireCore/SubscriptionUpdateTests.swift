import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

@Suite struct SubscriptionUpdateTests {
    private func update(_ text: String, productId: String = "annual") throws(WireError) -> SubscriptionUpdate {
        guard case .object(let object) = (try? JSONParser.parse(Array(text.utf8))) ?? .null else { throw WireError(.internal, "the test's JSON") }
        return try SubscriptionUpdate(Fields(object, path: "subscription_update"), productId: productId)
    }

    @Test func everyReplacementModePlayDocumentsIsTaken() throws {
        for mode in ["with_time_proration", "charge_prorated_price", "without_proration", "charge_full_price", "deferred"] {
            let read = try update(#"{"old_vendor_product_id":"monthly","replacement_mode":"\#(mode)"}"#)
            #expect(read.replacementMode.rawValue == mode)
            #expect(read.oldVendorProductId == "monthly")
        }
    }

    @Test func itIsWrittenToTheStoreAsGiven() throws {
        var writer = JSONWriter()
        try update(#"{"replacement_mode":"deferred","old_vendor_product_id":"monthly"}"#).write(to: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"old_vendor_product_id":"monthly","replacement_mode":"deferred"}"#)
    }
}
