import Foundation
import Hummingbird
import NIOCore
import PaywireModel
import PaywireServing
import ServerDomain

/// `GET /dashboard`: every placement's experiments as a page, from the same computation as the
/// results route, each experiment's variations framed beside their numbers (`DashboardPreviewRoute`);
/// a profile's purchases and transfers are `GET /dashboard/profiles/{id}` (DashboardProfileRoute).
enum DashboardRoute {
    static func register(on routes: ServerRoutes, api: API) {
        routes.add(.get, "/dashboard", door: .operatorPage(.dashboard)) { input in
            var placements: [PlacementResults] = []
            let now = api.clock.nowMilliseconds()
            for placementId in api.setup.experiments.keys.sorted() {
                placements.append(try await api.results(placementId, api.setup.experiments[placementId] ?? []))
            }
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: DashboardPage.page(placements, generatedAt: now, viewer: input.viewer, bundle: api.setup.webCatalog))))
        }
    }
}

/// The results page: server-rendered HTML with inline CSS and SVG, no script and no external
/// asset. Cells carry `data-field` (and rows `data-variation`) so a test can read them back.
enum DashboardPage {
    static func page(_ placements: [PlacementResults], generatedAt: Int, viewer: Viewer?, bundle: WebCatalog) -> String {
        let body = placements.map { placement($0, bundle: bundle) }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Paywire experiments</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 16px 20px; color: #1d2330; background: #fff; }
            h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; } h3 { font-size: 15px; }
            table { border-collapse: collapse; margin: 8px 0; width: 100%; } th, td { padding: 4px 5px; border-bottom: 1px solid #dde; text-align: right; }
            th { background: #f3f4f8; font-size: 12px; vertical-align: bottom; } td { white-space: nowrap; font-size: 13px; font-variant-numeric: tabular-nums; }
            th:first-child, td:first-child { text-align: left; } td:first-child { white-space: normal; overflow-wrap: anywhere; min-width: 9em; }
            td[data-field^="revenue"] { white-space: normal; }
            .srm { padding: 6px 10px; border-radius: 4px; display: inline-block; }
            svg.conversion-chart { display: block; margin: 8px 0 16px; }
            tr.holdout td { background: #f6f6f9; } .baseline { font-size: 12px; white-space: nowrap; color: #556; border: 1px solid #aab; border-radius: 3px; padding: 0 4px; }
            .srm.ok { background: #e8f6ec; } .srm.mismatch { background: #fde8e8; color: #9b1c1c; font-weight: 600; }
            \(previewStyle)
            </style></head><body>
            \(DashboardLoginPage.signedIn(viewer))
            <h1>Paywire experiments</h1>
            <p class="generated" data-generated-at="\(generatedAt)">Computed from the stored events and verified purchases at \(escape(isoDate(generatedAt))).</p>
            \(body)
            </body></html>
            """
    }

    private static func placement(_ results: PlacementResults, bundle: WebCatalog) -> String {
        let experiments = results.experiments.map { experiment($0, placementId: results.placementId, bundle: bundle) }.joined(separator: "\n")
        return "<section class=\"placement\" data-placement=\"\(escape(results.placementId))\"><h2>Placement \(escape(results.placementId))</h2>\n\(experiments)</section>"
    }

    private static func experiment(_ experiment: ExperimentResult, placementId: String, bundle: WebCatalog) -> String {
        let total = experiment.variations.reduce(0) { $0 + $1.exposed }
        // The holdout's conversion is what each shown variation is read against.
        let baseline = experiment.variations.first(where: \.holdout)
        let rows = experiment.variations.map { (variation: VariationResult) -> String in
            let share = total == 0 ? 0 : Double(variation.exposed) / Double(total)
            let marker = variation.holdout ? " <span class=\"baseline\" data-field=\"baseline\">holdout · baseline</span>" : ""
            return """
                <tr data-variation="\(escape(variation.variationId))" data-holdout="\(variation.holdout)"\(variation.holdout ? " class=\"holdout\"" : "")>\
                <td><span data-field="variation_id">\(escape(variation.variationId))</span>\(marker)</td>\
                <td data-field="weight">\(variation.weight)</td><td data-field="exposed">\(variation.exposed)</td>\
                <td data-field="share">\(percent(share))</td><td data-field="purchasers">\(variation.purchasers)</td>\
                <td data-field="store_purchases">\(variation.storePurchases)</td><td data-field="web_purchases">\(variation.webPurchases)</td>\
                <td data-field="transferred">\(variation.transferred)</td>\
                <td data-field="refunds">\(variation.refunds)</td><td data-field="active_subscribers">\(variation.activeSubscribers)</td>\
                <td data-field="rate">\(percent(variation.rate))</td>\
                <td data-field="interval">\(percent(variation.low)) – \(percent(variation.high))</td>\
                <td data-field="vs_baseline">\(versus(variation, baseline))</td>\
                <td data-field="revenue">\(escape(money(variation.revenue)))</td>\
                <td data-field="revenue_per_exposed">\(escape(money(variation.revenuePerExposed)))</td></tr>
                """
        }.joined(separator: "\n")
        let flag = experiment.mismatch ? "mismatch" : "ok"
        let name = experiment.abTestName.isEmpty ? "(no A/B test name)" : experiment.abTestName
        return """
            <div class="experiment" data-ab-test="\(escape(experiment.abTestName))"><h3>\(escape(name))</h3>
            <table><thead><tr><th>Variation</th><th>Weight</th><th>Exposed</th><th>Share of exposures</th><th>Purchasers</th><th>Store purchases</th><th>Web purchases</th><th>Transferred since</th><th>Refunds</th><th>Active subscribers</th>\
            <th>Conversion</th><th>95 % interval (Wilson)</th><th>vs holdout</th><th>Revenue</th><th>Revenue per exposed</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            \(platforms(experiment.variations))
            <p class="srm \(flag)" data-field="sample_ratio" data-mismatch="\(experiment.mismatch)">\
            \(experiment.mismatch ? "Sample ratio mismatch" : "No sample ratio mismatch"): \
            χ² = <span data-field="chi_square">\(format(experiment.chiSquare))</span>, \
            df = <span data-field="degrees_of_freedom">\(experiment.degreesOfFreedom)</span>, \
            p = <span data-field="p_value">\(format(experiment.pValue))</span> (flagged when p &lt; 0.001\(baseline == nil ? "" : ", over every row, the holdout's included"))</p>
            <p class="forced">Profiles exposed only by a debug override (left out of every row): \
            <span data-field="forced_exposures">\(experiment.forcedExposures)</span></p>
            \(chart(experiment.variations))
            \(previews(placementId: placementId, variations: experiment.variations.map { ($0.variationId, $0.holdout) }, bundle: bundle))
            </div>
            """
    }

    /// Each variation counted apart by where its profiles were shown the paywall: the apps and
    /// the web paywall (`platforms` of the results). Rows say `data-platform-variation`, so the
    /// rows of the table above stay the only `data-variation` ones.
    static func platforms(_ variations: [VariationResult]) -> String {
        func side(_ name: String, _ result: PlatformResult) -> String {
            let rate = result.exposed == 0 ? 0 : Double(result.purchasers) / Double(result.exposed)
            return "<td data-field=\"\(name)_exposed\">\(result.exposed)</td><td data-field=\"\(name)_purchasers\">\(result.purchasers)</td>"
                + "<td data-field=\"\(name)_rate\">\(percent(rate))</td>"
        }
        let rows = variations.map { variation in
            "<tr data-platform-variation=\"\(escape(variation.variationId))\"><td>\(escape(variation.variationId))</td>"
                + side("app", variation.app) + side("web", variation.web) + "</tr>"
        }.joined(separator: "\n")
        return "<table class=\"platforms\"><caption>Where the paywall was shown: in an app, or on the web paywall</caption>"
            + "<thead><tr><th>Variation</th><th>App: exposed</th><th>App: purchasers</th><th>App: conversion</th>"
            + "<th>Web: exposed</th><th>Web: purchasers</th><th>Web: conversion</th></tr></thead><tbody>\(rows)</tbody></table>"
    }

    /// Conversion per variation: a bar to the rate and a whisker over the 95 % interval.
    static func chart(_ variations: [VariationResult]) -> String {
        let rowHeight = 34.0, labelWidth = 170.0, plotWidth = 420.0, top = 10.0
        let highest = variations.map(\.high).max() ?? 0
        let axisMax = highest <= 0 ? 0.1 : min(1, (highest * 1.15 * 20).rounded(.up) / 20)
        let height = top + rowHeight * Double(variations.count) + 30
        func x(_ value: Double) -> Double { labelWidth + plotWidth * value / axisMax }
        var parts: [String] = []
        for (index, variation) in variations.enumerated() {
            let y = top + rowHeight * Double(index)
            let middle = y + rowHeight / 2
            parts.append("""
                <g class="variation" data-variation="\(escape(variation.variationId))">\
                <title>\(escape(variation.variationId)): \(percent(variation.rate)) (\(percent(variation.low)) – \(percent(variation.high)))</title>\
                <text x="\(labelWidth - 8)" y="\(middle + 4)" text-anchor="end">\(escape(variation.variationId))</text>\
                <rect x="\(labelWidth)" y="\(y + 8)" width="\(x(variation.rate) - labelWidth)" height="\(rowHeight - 16)" \
                fill="\(variation.holdout ? "#9aa3b5" : "#4c6ef5")"/>\
                <line x1="\(x(variation.low))" x2="\(x(variation.high))" y1="\(middle)" y2="\(middle)" stroke="#1d2330" stroke-width="2"/>\
                <line x1="\(x(variation.low))" x2="\(x(variation.low))" y1="\(middle - 7)" y2="\(middle + 7)" stroke="#1d2330" stroke-width="2"/>\
                <line x1="\(x(variation.high))" x2="\(x(variation.high))" y1="\(middle - 7)" y2="\(middle + 7)" stroke="#1d2330" stroke-width="2"/>\
                <text x="\(x(variation.high) + 6)" y="\(middle + 4)">\(percent(variation.rate))</text></g>
                """)
        }
        let axisY = top + rowHeight * Double(variations.count)
        if let baseline = variations.first(where: \.holdout) {
            parts.append("""
                <line class="baseline" x1="\(x(baseline.rate))" x2="\(x(baseline.rate))" y1="\(top)" y2="\(axisY)" stroke="#556" \
                stroke-dasharray="4 3"><title>holdout \(escape(baseline.variationId)): \(percent(baseline.rate))</title></line>
                """)
        }
        var axis = "<line x1=\"\(labelWidth)\" x2=\"\(labelWidth + plotWidth)\" y1=\"\(axisY)\" y2=\"\(axisY)\" stroke=\"#889\"/>"
        for step in 0...4 {
            let value = axisMax * Double(step) / 4
            axis += "<text x=\"\(x(value))\" y=\"\(axisY + 18)\" text-anchor=\"middle\" fill=\"#556\">\(percent(value, digits: 1))</text>"
        }
        return """
            <svg class="conversion-chart" xmlns="http://www.w3.org/2000/svg" width="\(labelWidth + plotWidth + 90)" height="\(height)" \
            font-size="12" role="img" aria-label="Conversion per variation with 95 % intervals">\(parts.joined())\(axis)</svg>
            """
    }

    /// A shown variation's conversion against the holdout's, in percentage points; the holdout
    /// row is the baseline itself, and without a holdout there is nothing to read against.
    static func versus(_ variation: VariationResult, _ baseline: VariationResult?) -> String {
        guard let baseline else { return "–" }
        if variation.holdout { return "baseline" }
        return String(format: "%+.2f pts", (variation.rate - baseline.rate) * 100)
    }

    /// A share as a percentage with `digits` decimals (`5.20 %`).
    static func percent(_ value: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f %%", value * 100) }

    /// Four significant digits (`0.8100`, `1.234e-07`).
    static func format(_ value: Double) -> String { String(format: "%.4g", value) }

    static func money(_ list: [(currency: String, amount: String)]) -> String {
        list.isEmpty ? "–" : list.map { "\($0.currency) \($0.amount)" }.joined(separator: ", ")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func isoDate(_ milliseconds: Int) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
