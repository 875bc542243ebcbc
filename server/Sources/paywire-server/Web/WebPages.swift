import HTTPTypes
import Hummingbird
import NIOCore
import PaywireWeb
import PaywireWire
import ServerDomain

/// The web paywall's answers as pages: every one `no-store`, under a Content-Security-Policy
/// that runs only the page's own style and script (by a nonce made for the page) and lets it
/// reach only its own server (the beacon), framed by nobody, and carrying the visitor's cookie
/// when it is new.
enum WebPages {
    /// A nonce of 16 random bytes, base64url.
    static func nonce(_ random: any RandomSource) -> String { Base64.encodeURL(random.bytes(16)) }

    static func policy(nonce: String, framedBy: String = "'none'") -> String {
        "default-src 'none'; style-src 'nonce-\(nonce)'; script-src 'nonce-\(nonce)'; img-src https: http: data:; connect-src 'self'; "
            + "form-action 'self' https: http:; base-uri 'none'; frame-ancestors \(framedBy)"
    }

    static func html(_ status: HTTPResponse.Status, _ page: String, nonce: String, visitor: WebVisitors.Admitted?, web: WebSetup,
                     framedBy: String = "'none'") -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        for (name, value) in [("Content-Security-Policy", policy(nonce: nonce, framedBy: framedBy)), ("X-Content-Type-Options", "nosniff"),
                              ("Referrer-Policy", "same-origin")] {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        if let visitor, visitor.isNew { headers[.setCookie] = visitor.visitor.setCookie(secure: web.secureCookies) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// A short page saying what happened: a title, a sentence, and optionally a link.
    static func notice(_ status: HTTPResponse.Status, title: String, message: String, nonce: String, visitor: WebVisitors.Admitted?,
                       web: WebSetup, link: (text: String, href: String)? = nil, refresh: (seconds: Int, url: String)? = nil,
                       seen: PaywallPage.Beacon? = nil) -> Response {
        html(status, PaywallPage.notice(title: title, message: message, link: link, refresh: refresh, nonce: nonce, seen: seen),
             nonce: nonce, visitor: visitor, web: web)
    }

}
