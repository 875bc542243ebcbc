import PaywireModel
import PaywireServing

/// The dashboard's previews: under each experiment's numbers, every variation's paywall framed
/// at a phone's width (`DashboardPreviewRoute`), with links to open it at a desktop's width and
/// in each language its remote configs speak. The dashboard itself stays a page without script:
/// the frames run only their own page's nonce'd script, sandboxed without `allow-same-origin`, so
/// a layout's content can never reach the dashboard, its cookie-bearing forms or its session.
extension DashboardPage {
    /// A frame's size: a phone's screen, less the browser's bars. A holdout's frame is short:
    /// it shows one sentence.
    static let frameHeight = 720, holdoutFrameHeight = 200

    /// The block of previews of `variations` (those the bundle has; results may name others).
    static func previews(placementId: String, variations: [(id: String, holdout: Bool)], bundle: WebCatalog) -> String {
        let known = Set(bundle.variationIds(of: placementId))
        let figures = variations.filter { known.contains($0.id) }.map { variation in
            preview(placementId: placementId, variationId: variation.id, holdout: variation.holdout,
                    languages: bundle.languages(of: placementId, variationId: variation.id))
        }
        guard !figures.isEmpty else { return "" }
        return "<div class=\"previews\" data-previews=\"\(escape(placementId))\">\(figures.joined(separator: "\n"))</div>"
    }

    /// One variation's frame and its links. Each link opens the preview on its own (a new tab):
    /// the frame is small, and an operator checking a layout wants it at full size.
    static func preview(placementId: String, variationId: String, holdout: Bool, languages: [String]) -> String {
        let route = previewPath(placementId: placementId, variationId: variationId)
        var links = [link("desktop", route + "?width=\(PreviewQuery.desktopWidth)", label: "\(variationId) at a desktop's width")]
        for language in languages {
            links.append(link(language, route + "?locale=\(URLComponent.escaped(language))", label: "\(variationId) in \(language)"))
        }
        return """
            <figure class="preview" data-preview="\(escape(variationId))"><figcaption><span class="preview-name">\(escape(variationId))</span> \
            \(links.joined(separator: " "))</figcaption>\
            <iframe src="\(escape(route))" title="\(escape("Paywall of variation \(variationId)"))" \
            width="\(PreviewQuery.phoneWidth)" height="\(holdout ? holdoutFrameHeight : frameHeight)" loading="lazy" \
            sandbox="allow-scripts"></iframe></figure>
            """
    }

    /// The preview route of a variation, each id one percent-encoded path segment.
    static func previewPath(placementId: String, variationId: String) -> String {
        "/dashboard/previews/\(URLComponent.escaped(placementId))/\(URLComponent.escaped(variationId))"
    }

    private static func link(_ text: String, _ href: String, label: String) -> String {
        "<a href=\"\(escape(href))\" target=\"_blank\" rel=\"noopener\" aria-label=\"\(escape("Open \(label)"))\">\(escape(text))</a>"
    }

    /// The previews' rules, added to the dashboard's stylesheet: frames side by side, wrapping,
    /// so three phones fit across a 1280 px window beside nothing wider than the tables.
    static let previewStyle = """
        .previews { display: flex; flex-wrap: wrap; gap: 16px; margin: 8px 0 24px; }
        .preview { margin: 0; } .preview figcaption { font-size: 12px; margin-bottom: 4px; color: #556; }
        .preview figcaption a { margin-left: 6px; } .preview-name { font-weight: 600; color: #1d2330; }
        .preview iframe { display: block; border: 1px solid #ccd; border-radius: 6px; background: #fff; }
        """
}
