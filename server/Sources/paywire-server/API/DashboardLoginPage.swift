/// The sign-in page and the signed-in bar of the dashboard's pages: plain HTML, no script, a
/// label for every field, usable from the keyboard alone.
enum DashboardLoginPage {
    static func page(csrf: String, next: String, message: String?) -> String {
        let escape = DashboardPage.escape
        let notice = message.map { "<p class=\"notice\" role=\"alert\">\(escape($0))</p>" } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Sign in · Paywire</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            body { font: 15px/1.5 system-ui, sans-serif; color: #1d2330; background: #fff; margin: 0; }
            main { max-width: 26em; margin: 12vh auto; padding: 0 20px; }
            h1 { font-size: 22px; } label { display: block; font-weight: 600; margin: 16px 0 4px; }
            input[type=password] { width: 100%; box-sizing: border-box; font: inherit; padding: 8px; border: 1px solid #6b7280; border-radius: 4px; }
            button { margin-top: 16px; font: inherit; padding: 8px 18px; border: 0; border-radius: 4px; background: #1d4ed8; color: #fff; cursor: pointer; }
            :focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
            .notice { background: #fde8e8; color: #7f1d1d; padding: 8px 12px; border-radius: 4px; }
            .hint { color: #4b5563; font-size: 13px; }
            </style></head><body><main>
            <h1>Paywire dashboard</h1>
            \(notice)
            <form method="post" action="/dashboard/login">
            <input type="hidden" name="csrf" value="\(escape(csrf))">
            <input type="hidden" name="next" value="\(escape(next))">
            <label for="key">Operator key</label>
            <input type="password" id="key" name="key" autocomplete="off" required autofocus>
            <p class="hint">A key with the <code>dashboard</code> scope. The app's key does not open the dashboard.</p>
            <button type="submit">Sign in</button>
            </form>
            </main></body></html>
            """
    }

    /// Who is signed in, and the form that signs out; empty for a request made with a key.
    static func signedIn(_ viewer: Viewer?) -> String {
        guard let viewer, let csrf = viewer.csrf else { return "" }
        return """
            <form class="session" method="post" action="/dashboard/logout" style="float: right; margin: 4px 0;">\
            Signed in with <b data-field="operator">\(DashboardPage.escape(viewer.keyId))</b> \
            <input type="hidden" name="csrf" value="\(DashboardPage.escape(csrf))">\
            <button type="submit" id="sign-out">Sign out</button></form>
            """
    }
}
