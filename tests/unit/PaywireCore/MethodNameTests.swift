import Testing
@testable import PaywireCore

/// The boundary finds a method from the C string's bytes: exactly the known names resolve.
@Suite struct MethodNameTests {
    private func resolve(_ text: String) -> MethodName? {
        var text = text
        return text.withUTF8 { MethodName.resolve($0) }
    }

    @Test func everyKnownMethodResolvesToItselfFromItsBytes() {
        let names = (MethodTable.clientMethods + MethodTable.deliveryMethods + MethodTable.profileMethods
                     + MethodTable.paywallViewMethods + MethodTable.onboardingMethods + MethodTable.purchaseMethods).map(\.name)
        #expect(names.count > 40)
        for name in names {
            #expect(resolve(name)?.name == name)
            #expect(resolve(name)?.entry != nil)
        }
    }

    @Test func aNameThatDiffersAnywhereOrByLengthDoesNotResolve() {
        // get_paywall is 11 bytes: the first 8 compared at once, the last 3 one by one.
        for near in ["get_paywalL", "Get_paywall", "get_paywal", "get_paywall_", "get_paywall\u{0}", "", "get_payw", "get_paywalls_x"] {
            #expect(resolve(near) == nil, "\(near.debugDescription)")
        }
    }

    @Test func anUnknownNameIsKeptForTheAnswerAndHasNoEntry() {
        let unknown = MethodName("get_paywal")
        #expect(unknown.entry == nil)
        #expect(unknown.name == "get_paywal")
        #expect(MethodName("get_paywall").name == "get_paywall")
    }
}
