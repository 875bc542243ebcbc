import PaywireServing
import PaywireWeb
import Testing

/// The renderer draws exactly what the builder accepts.
@Suite struct ListTests {
    @Test func theSectionTypesAreTheBuilders() {
        #expect(PaywallPage.sectionTypes.count == 21)
        #expect(Set(PaywallPage.sectionTypes) == Set(PaywallBuilderNames.sectionTypes))
    }

    @Test func thePlanStylesAreTheBuilders() {
        #expect(PaywallPage.planStyles.count == 12)
        #expect(Set(PaywallPage.planStyles) == Set(PaywallBuilderNames.planStyles))
    }
}
