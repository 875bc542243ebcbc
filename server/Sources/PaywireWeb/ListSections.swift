import PaywireWire

/// The sections that are lists of the author's items: features, timeline steps, an icon grid,
/// a comparison table and a carousel of reviews. An item missing its text is left out.
extension Renderer {
    mutating func featuresList(_ fields: JSONObject) {
        let items = fields.objects("items").filter { $0.text("text") != nil }
        guard !items.isEmpty else { return }
        out += "<ul class=\"pw-features\">"
        for item in items {
            out += "<li>\(Self.icon(item.text("icon")))<span>\(HTMLText.escape(item.text("text") ?? ""))</span></li>"
        }
        out += "</ul>"
    }

    mutating func timeline(_ fields: JSONObject) {
        let steps = fields.objects("steps").filter { $0.text("title") != nil }
        guard !steps.isEmpty else { return }
        out += "<ol class=\"pw-timeline\">"
        for step in steps {
            out += "<li><p class=\"pw-step-title\">\(HTMLText.escape(step.text("title") ?? ""))</p>"
            if let description = step.text("description") {
                out += "<p class=\"pw-step-text\">\(HTMLText.escape(description))</p>"
            }
            out += "</li>"
        }
        out += "</ol>"
    }

    mutating func iconGrid(_ fields: JSONObject) {
        let items = fields.objects("items").filter { $0.text("label") != nil }
        guard !items.isEmpty else { return }
        out += "<ul class=\"pw-icon-grid\">"
        for item in items {
            out += "<li>\(Self.icon(item.text("icon") ?? item.text("label")))<span>\(HTMLText.escape(item.text("label") ?? ""))</span></li>"
        }
        out += "</ul>"
    }

    /// A real table with column and row headers, so a screen reader reads `Ads, Premium: No`.
    /// A row with fewer values than columns gets empty cells; extra values are dropped. The
    /// wrapper scrolls on a narrow screen and takes focus so the keyboard can scroll it too.
    mutating func comparisonTable(_ fields: JSONObject) {
        let columns = Self.cells(fields.list("columns"))
        let rows = fields.objects("rows")
        guard !columns.isEmpty || !rows.isEmpty else { return }
        let width = columns.isEmpty ? rows.map { Self.cells($0.list("values")).count }.max() ?? 0 : columns.count
        out += "<div class=\"pw-table-wrap\" role=\"region\" aria-label=\"Comparison\" tabindex=\"0\"><table class=\"pw-table\">"
        if !columns.isEmpty {
            out += "<thead><tr><td></td>"
            for column in columns { out += "<th scope=\"col\">\(HTMLText.escape(column))</th>" }
            out += "</tr></thead>"
        }
        out += "<tbody>"
        for row in rows {
            let values = Self.cells(row.list("values"))
            out += "<tr><th scope=\"row\">\(HTMLText.escape(row.text("label") ?? ""))</th>"
            for position in 0..<width {
                out += "<td>\(position < values.count ? HTMLText.escape(values[position]) : "")</td>"
            }
            out += "</tr>"
        }
        out += "</tbody></table></div>"
    }

    mutating func reviewsCarousel(_ fields: JSONObject) {
        let reviews = fields.objects("reviews").filter { $0.text("text") != nil }
        guard !reviews.isEmpty else { return }
        out += "<div class=\"pw-scroller pw-reviews\" role=\"region\" aria-label=\"Reviews\" tabindex=\"0\"><ul class=\"pw-track\">"
        for review in reviews {
            out += "<li class=\"pw-slide\"><figure class=\"pw-review\">"
            if let rating = review.number("rating") { out += "<p>\(Self.rating(rating))</p>" }
            out += "<blockquote class=\"pw-quote\"><p>\(HTMLText.escape(review.text("text") ?? ""))</p></blockquote>"
            if let author = review.text("author") {
                out += "<figcaption class=\"pw-author\">\(HTMLText.escape(author))</figcaption>"
            }
            out += "</figure></li>"
        }
        out += "</ul></div>"
    }

    /// Table cells by position: anything that is not a string is an empty cell, so one bad value
    /// does not shift the rest into the wrong column.
    private static func cells(_ values: [JSONValue]) -> [String] {
        values.map { value in
            guard case .string(let text) = value else { return "" }
            return text
        }
    }
}
