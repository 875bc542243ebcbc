import Foundation
import Hummingbird
import NIOCore
import PaywireModel
import ServerDomain
import ServerStore

/// `GET /dashboard/profiles/{profile_id}`: one profile's purchases (app stores and the web),
/// the transfers in and out, and its web checkouts, as a page like the results'.
enum DashboardProfileRoute {
    static func register(on routes: ServerRoutes, api: API) {
        routes.add(.get, "/dashboard/profiles/{profile_id}", door: .operatorPage(.customersRead)) { input in
            let profileId = input.path("profile_id")
            let view = try await api.setup.store.profileView(profileId)
            let known = view.known || !view.transactions.isEmpty || !view.webPurchases.isEmpty
            return Response(status: known ? .ok : .notFound, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: DashboardProfilePage.page(profileId, view, now: api.clock.nowMilliseconds(),
                                                                                         viewer: input.viewer))))
        }
    }
}

/// The profile page: server-rendered HTML, no script. Rows carry `data-transaction` (purchases,
/// transfers) or `data-checkout` (web checkouts) and cells `data-field`, so a test can read
/// them back.
enum DashboardProfilePage {
    static func page(_ profileId: String, _ view: ProfileView, now: Int, viewer: Viewer?) -> String {
        let escape = DashboardPage.escape
        let held = profileId.hasPrefix(StripeEvent.holderPrefix)
        let intro = held
            ? "<p class=\"held\" data-field=\"held\">A web purchase made without a profile, held here until its redemption link is redeemed.</p>"
            : "<p>Customer user id: <span data-field=\"customer_user_id\">\(escape(view.customerUserId ?? "–"))</span></p>"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Paywire profile \(escape(profileId))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2330; background: #fff; }
            h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
            table { border-collapse: collapse; margin: 8px 0; width: 100%; } th, td { padding: 4px 6px; border-bottom: 1px solid #dde; text-align: left; }
            td { font-size: 13px; overflow-wrap: anywhere; }
            th { background: #f3f4f8; } .web { font-size: 12px; border: 1px solid #4c6ef5; color: #4c6ef5; border-radius: 3px; padding: 0 4px; }
            .moved td { color: #778; } .held { padding: 6px 10px; background: #fff6e0; display: inline-block; border-radius: 4px; }
            </style></head><body>
            \(DashboardLoginPage.signedIn(viewer))
            <h1>Profile <span data-field="profile_id">\(escape(profileId))</span></h1>
            \(intro)
            <p class="generated" data-generated-at="\(now)">As the store holds it at \(escape(DashboardPage.isoDate(now))).</p>
            <h2>Purchases</h2>
            \(purchases(profileId, view.transactions))
            <h2>Transfers</h2>
            \(transfers(profileId, view.transfers))
            <h2>Web checkouts</h2>
            \(checkouts(profileId, view.webPurchases, now: now))
            </body></html>
            """
    }

    /// Every transaction the profile holds or bought: a web purchase is marked, and one whose
    /// access moved away (or came from its buyer) says so.
    private static func purchases(_ profileId: String, _ transactions: [ViewedTransaction]) -> String {
        guard !transactions.isEmpty else { return "<p data-field=\"no_purchases\">No purchases.</p>" }
        let rows = transactions.map { t -> String in
            let movedAway = !Identity.same(t.owner, profileId)
            let store = t.isWeb ? "\(escape(t.store.rawValue)) <span class=\"web\">web</span>" : escape(t.store.rawValue)
            let cell = t.variationId.map { "\(t.placementId ?? "") / \(t.abTestName ?? "") / \($0)" } ?? "–"
            let price = t.priceAmount.map { "\(t.currencyCode ?? "") \($0)" } ?? "–"
            return """
                <tr data-transaction="\(escape(t.transactionId))" data-web="\(t.isWeb)" data-moved-away="\(movedAway)"\(movedAway ? " class=\"moved\"" : "")>\
                <td data-field="transaction_id">\(escape(t.transactionId))</td><td data-field="vendor_product_id">\(escape(t.vendorProductId))</td>\
                <td data-field="store">\(store)</td><td data-field="status">\(escape(t.status.rawValue))</td>\
                <td data-field="purchased_at">\(escape(DashboardPage.isoDate(t.purchasedAt)))</td><td data-field="price">\(escape(price))</td>\
                <td data-field="purchaser">\(link(t.purchaser, current: profileId))</td><td data-field="owner">\(link(t.owner, current: profileId))</td>\
                <td data-field="cell">\(escape(cell))</td></tr>
                """
        }.joined(separator: "\n")
        return """
            <table class="purchases"><thead><tr><th>Transaction</th><th>Product</th><th>Store</th><th>Status</th><th>Bought</th><th>Price</th>\
            <th>Bought by (results count it there)</th><th>Access held by</th><th>Paywall cell (placement / test / variation)</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    private static func transfers(_ profileId: String, _ entries: [TransferEntry]) -> String {
        guard !entries.isEmpty else { return "<p data-field=\"no_transfers\">No transfers.</p>" }
        let rows = entries.map { entry -> String in
            let record = entry.record
            let direction = Identity.same(record.toProfileId, profileId) ? "in" : "out"
            return """
                <tr data-transaction="\(escape(record.transactionId))" data-direction="\(direction)">\
                <td data-field="transferred_at">\(escape(DashboardPage.isoDate(entry.transferredAt)))</td>\
                <td data-field="direction">\(direction)</td><td data-field="transaction_id">\(escape(record.transactionId))</td>\
                <td data-field="vendor_product_id">\(escape(record.vendorProductId))</td>\
                <td data-field="from_profile_id">\(link(record.fromProfileId, current: profileId))</td>\
                <td data-field="to_profile_id">\(link(record.toProfileId, current: profileId))</td><td data-field="reason">\(escape(entry.reason.rawValue))</td></tr>
                """
        }.joined(separator: "\n")
        return """
            <table class="transfers"><thead><tr><th>When</th><th>In / out</th><th>Transaction</th><th>Product</th><th>From</th><th>To</th>\
            <th>Why</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    /// Checkouts held here for redemption or redeemed by this profile, with where each stands.
    private static func checkouts(_ profileId: String, _ checkouts: [ViewedWebPurchase], now: Int) -> String {
        guard !checkouts.isEmpty else { return "<p data-field=\"no_checkouts\">No web checkouts held or redeemed here.</p>" }
        let rows = checkouts.map { checkout -> String in
            let state: String
            if let redeemer = checkout.redeemedBy {
                state = "redeemed by \(link(redeemer, current: profileId)) at \(escape(DashboardPage.isoDate(checkout.redeemedAt ?? 0)))"
            } else if !checkout.redeemable {
                state = "named its profile: nothing to redeem"
            } else if let expiry = checkout.tokenExpiresAt {
                state = "awaiting redemption: the link \(expiry > now ? "redeems until" : "expired at") \(escape(DashboardPage.isoDate(expiry)))"
            } else {
                state = "awaiting redemption: no link issued yet"
            }
            return """
                <tr data-checkout="\(escape(checkout.checkoutSessionId))" data-redeemed="\(checkout.redeemedBy != nil)">\
                <td data-field="checkout_session_id">\(escape(checkout.checkoutSessionId))</td>\
                <td data-field="original_transaction_id">\(escape(checkout.originalTransactionId))</td>\
                <td data-field="completed_at">\(escape(DashboardPage.isoDate(checkout.completedAt)))</td>\
                <td data-field="holder">\(link(checkout.holder, current: profileId))</td><td data-field="state">\(state)</td></tr>
                """
        }.joined(separator: "\n")
        return """
            <table class="checkouts"><thead><tr><th>Checkout session</th><th>Purchase</th><th>Completed</th><th>Held by</th><th>State</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    /// Another profile as a link to its own view; this one as plain text.
    private static func link(_ profileId: String, current: String) -> String {
        guard !Identity.same(profileId, current) else { return escape(profileId) }
        let path = profileId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? profileId
        return "<a href=\"/dashboard/profiles/\(escape(path))\">\(escape(profileId))</a>"
    }

    private static func escape(_ text: String) -> String { DashboardPage.escape(text) }
}
