import PaywireWire

/// Draws sections into one HTML string. A value type threaded through the section files: it
/// holds the little state a page has (whether the `<h1>` and the checked radio were given).
struct Renderer {
    /// Deepest nesting drawn, as the builder allows: sections inside sections inside ... four deep.
    static let maxNesting = 4

    /// Whether the page sells (controls post) or only shows (notes for what is not drawn).
    let live: Bool
    /// The plans known before drawing.
    let index: PlanIndex
    /// The HTML written so far.
    var out = ""
    /// Whether the page's one `<h1>` was given; later headers are `<h2>`.
    var headingGiven = false
    /// Whether the initial product's radio was checked; only its first radio is, so the HTML
    /// never carries two checked radios of one group.
    var checkedGiven = false

    init(live: Bool, index: PlanIndex) {
        self.live = live
        self.index = index
    }

    /// Draws a list of sections at a nesting depth (0 for the layout's own list).
    mutating func sections(_ values: [JSONValue], depth: Int) {
        guard depth < Self.maxNesting else {
            return omitted("Sections nested deeper than \(Self.maxNesting) are not drawn.",
                           comment: "sections nested deeper than the builder allows are left out")
        }
        for value in values { section(value, depth: depth) }
    }

    /// Draws one section by its type.
    mutating func section(_ value: JSONValue, depth: Int) {
        guard case .object(let fields) = value, let type = fields.text("type") else {
            return omitted("A section without a type is not drawn.", comment: "a section without a type is left out")
        }
        switch type {
        case "header": header(fields)
        case "features_list": featuresList(fields)
        case "plan_selection": planSelection(fields)
        case "cta_button": ctaButton(fields)
        case "social_proof": socialProof(fields)
        case "guarantee": guarantee(fields)
        case "image": image(fields)
        case "spacer": spacer(fields)
        case "testimonial": testimonial(fields)
        case "countdown": countdown(fields)
        case "legal": legal(fields)
        case "divider": out += "<hr class=\"pw-divider\">"
        case "card", "carousel", "sticky_footer": container(type, fields, depth: depth)
        case "timeline": timeline(fields)
        case "icon_grid": iconGrid(fields)
        case "comparison_table": comparisonTable(fields)
        case "promo_input": promoInput(fields)
        case "toggle": toggle(fields)
        case "reviews_carousel": reviewsCarousel(fields)
        default:
            omitted("Section type '\(type)' is not drawn.", comment: "a section type this page does not know is left out")
        }
    }

    /// A section holding sections: a card, a carousel of slides, or a footer that stays in view.
    private mutating func container(_ type: String, _ fields: JSONObject, depth: Int) {
        let children = fields.list("sections")
        switch type {
        case "carousel":
            out += "<div class=\"pw-scroller pw-carousel\" role=\"region\" aria-roledescription=\"carousel\" aria-label=\"Slides\" tabindex=\"0\"><ul class=\"pw-track\">"
            if depth + 1 < Self.maxNesting {
                for child in children {
                    out += "<li class=\"pw-slide\">"
                    section(child, depth: depth + 1)
                    out += "</li>"
                }
            } else {
                // Too deep: one slide carries the note, so the list stays a list.
                out += "<li class=\"pw-slide\">"
                sections(children, depth: depth + 1)
                out += "</li>"
            }
            out += "</ul></div>"
        case "sticky_footer":
            out += "<div class=\"pw-sticky\">"
            sections(children, depth: depth + 1)
            out += "</div>"
        default:
            out += "<div class=\"pw-card\">"
            sections(children, depth: depth + 1)
            out += "</div>"
        }
    }

    /// Something the page does not draw: a visible note in preview, so the operator sees what a
    /// buyer would miss; only a comment in live, where a buyer needs no explanation. The comment
    /// is fixed text because author text inside a comment could end it.
    mutating func omitted(_ note: String, comment: String) {
        if live {
            out += "<!-- \(comment) -->"
        } else {
            out += "<div class=\"pw-unknown\" role=\"note\">\(HTMLText.escape(note))</div>"
        }
    }
}
