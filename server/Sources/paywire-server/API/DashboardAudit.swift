import Hummingbird
import NIOCore
import ServerDomain

/// `GET /dashboard/audit`: the latest 500 audit records, newest first, as a page like the
/// others (operator key, or session, with `audit:read`). No record holds a secret: keys appear
/// by id only.
enum DashboardAuditRoute {
    static let shown = 500

    static func register(on routes: ServerRoutes, api: API) {
        routes.add(.get, "/dashboard/audit", door: .operatorPage(.auditRead)) { input in
            let records = try await api.setup.store.auditRecords(limit: shown)
            let page = DashboardAuditPage.page(records, now: api.clock.nowMilliseconds(), viewer: input.viewer)
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: page)))
        }
    }
}

/// The audit page: one row per record, cells with `data-field` so a test can read them back.
enum DashboardAuditPage {
    static func page(_ records: [AuditRecord], now: Int, viewer: Viewer?) -> String {
        let escape = DashboardPage.escape
        let rows = records.map { record in
            "<tr class=\"audit\"><td data-field=\"at\">\(escape(DashboardPage.isoDate(record.at)))</td>"
                + "<td data-field=\"key_id\">\(escape(record.keyId))</td><td data-field=\"action\">\(escape(record.action))</td>"
                + "<td data-field=\"subject\">\(escape(record.subject))</td><td data-field=\"status\">\(record.status)</td></tr>"
        }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Paywire audit</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 16px 20px; color: #1d2330; background: #fff; }
            h1 { font-size: 22px; } table { border-collapse: collapse; width: 100%; }
            th, td { padding: 4px 6px; border-bottom: 1px solid #dde; text-align: left; font-size: 13px; } th { background: #f3f4f8; }
            td[data-field="subject"] { overflow-wrap: anywhere; }
            </style></head><body>
            \(DashboardLoginPage.signedIn(viewer))
            <h1>What operators did</h1>
            <p class="generated" data-generated-at="\(now)">The latest \(DashboardAuditRoute.shown) records at most, newest first, at \(escape(DashboardPage.isoDate(now))).</p>
            <table><thead><tr><th>When</th><th>Key</th><th>What</th><th>About</th><th>Answer</th></tr></thead>
            <tbody>
            \(rows)
            </tbody></table>
            </body></html>
            """
    }
}
