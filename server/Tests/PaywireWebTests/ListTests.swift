import Testing
import PaywireWeb

/// The renderer draws exactly what the builder accepts.
@Suite struct ListTests {
    // A copy of PaywallBuilder's lists (PaywireCore, which the server cannot import). The
    // integrator is moving PaywallBuilder into PaywireModel and will point these two tests at it.
    static let builderSectionTypes = [
        "header", "features_list", "plan_selection", "cta_button", "social_proof", "guarantee", "image",
        "spacer", "testimonial", "countdown", "legal", "divider", "sticky_footer", "card", "carousel",
        "timeline", "icon_grid", "comparison_table", "promo_input", "toggle", "reviews_carousel",
    ]
    static let builderPlanStyles = [
        "horizontal_cards", "vertical_stack", "toggle_switch", "segmented_control", "radio_list", "carousel",
        "comparison_grid", "pill_selector", "tier_blocks", "minimal_text", "featured_highlight", "accordion",
    ]

    @Test func theSectionTypesAreTheBuilders() {
        #expect(PaywallPage.sectionTypes.count == 21)
        #expect(Set(PaywallPage.sectionTypes) == Set(Self.builderSectionTypes))
    }

    @Test func thePlanStylesAreTheBuilders() {
        #expect(PaywallPage.planStyles.count == 12)
        #expect(Set(PaywallPage.planStyles) == Set(Self.builderPlanStyles))
    }
}
