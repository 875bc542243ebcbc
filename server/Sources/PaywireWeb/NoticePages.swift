import PaywireWire

extension PaywallPage {
    /// A short page of the web paywall that is not a paywall: what happened (`title`), a
    /// sentence, and optionally a link onward. `refresh` makes the browser load `url` after
    /// `seconds` by itself (a payment being confirmed), which needs no script.
    /// `seen`: the page's beacon, when its showing counts (a holdout's page).
    public static func notice(title: String, message: String, link: (text: String, href: String)?, refresh: (seconds: Int, url: String)?,
                              nonce: String, lang: String = "en", seen: Beacon? = nil) -> String {
        var body = "<p class=\"pw-subtitle\">\(HTMLText.escape(message))</p>"
        if let link {
            body += "<p><a class=\"pw-cta pw-cta-link\"\(HTMLText.attribute("href", link.href))>\(HTMLText.escape(link.text))</a></p>"
        }
        let head = refresh.map { "<meta http-equiv=\"refresh\"\(HTMLText.attribute("content", "\(max(1, $0.seconds));url=\($0.url)"))>" } ?? ""
        if let seen { body += seen.element + "<script\(HTMLText.attribute("nonce", nonce))>\(Script.seen)</script>" }
        return shell(title: title, body: body, head: head, nonce: nonce, lang: lang)
    }

    /// The page a buyer comes back to from Stripe: the link that opens the app with the
    /// purchase, as a button and as text to copy (broken anywhere: a token has no place a line
    /// may break, and a phone 320 px wide must not scroll sideways), and, in words, how long it
    /// redeems (`ExpiryWords`). `qrSVG`, when given, is drawn beside it for a phone to scan (it
    /// is the caller's, already SVG markup). `expiresAt` and `now` are milliseconds.
    public static func redemption(link: String, expiresAt: Int, now: Int, qrSVG: String? = nil, nonce: String, lang: String = "en") -> String {
        var body = "<p class=\"pw-subtitle\">Open the app with this link to unlock your purchase on this device.</p>"
        body += "<p><a class=\"pw-cta pw-cta-link\" id=\"pw-redeem\"\(HTMLText.attribute("href", link))>Open in the app</a></p>"
        if let qrSVG { body += "<figure class=\"pw-card\">\(qrSVG)<figcaption class=\"pw-legal\">Scan with your phone</figcaption></figure>" }
        body += "<p class=\"pw-legal\">Or copy: <code class=\"pw-copy\" id=\"pw-redeem-link\">\(HTMLText.escape(link))</code></p>"
        body += "<p class=\"pw-legal\">The link works once, <time id=\"pw-redeem-expiry\"\(HTMLText.attribute("datetime", ISODate.format(milliseconds: expiresAt)))>"
            + "\(HTMLText.escape(ExpiryWords.phrase(expiresAt: expiresAt, now: now)))</time>.</p>"
        return shell(title: "Thank you", body: body, head: "", nonce: nonce, lang: lang)
    }

    private static func shell(title: String, body: String, head: String, nonce: String, lang: String) -> String {
        "<!DOCTYPE html>\n<html\(HTMLText.attribute("lang", lang.isEmpty ? "en" : lang))><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\(head)"
            + "<title>\(HTMLText.escape(title))</title><style\(HTMLText.attribute("nonce", nonce))>\(Stylesheet.css)</style></head>"
            + "<body><main class=\"pw-page pw-layout-stack\"><div class=\"pw-sections\"><header class=\"pw-header\">"
            + "<h1 class=\"pw-title\">\(HTMLText.escape(title))</h1></header>\(body)</div></main></body></html>\n"
    }
}
