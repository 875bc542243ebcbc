import PaywireWire

/// The sections that are pictures or space: an image and a spacer. Both size themselves with
/// attributes, never `style=`, which the page's Content-Security-Policy forbids.
extension Renderer {
    /// A web image, or a placeholder box for anything a browser cannot fetch (an app's
    /// `asset://`, another scheme), captioned with the asset's name so an operator knows which.
    /// The aspect ratio becomes `width`/`height` attributes: browsers reserve that shape before
    /// the image loads (CSS scales it to the column), so the page does not jump.
    mutating func image(_ fields: JSONObject) {
        guard let url = fields.text("url") else { return }
        let ratio = fields.number("aspect_ratio").flatMap { $0 >= 0.01 && $0 <= 100 ? $0 : nil }
        let alt = fields.text("alt") ?? ""
        if HTMLText.isWebURL(url) {
            out += "<img class=\"pw-image\"\(HTMLText.attribute("src", url))\(HTMLText.attribute("alt", alt))"
            if let ratio {
                let (width, height) = Self.box(ratio)
                out += " width=\"\(width)\" height=\"\(height)\""
            }
            out += " loading=\"lazy\" decoding=\"async\" referrerpolicy=\"no-referrer\">"
            return
        }
        let name = HTMLText.assetName(url) ?? url
        let (width, height) = Self.box(ratio ?? 16.0 / 9.0)
        out += "<div class=\"pw-asset\" role=\"img\"\(HTMLText.attribute("aria-label", alt.isEmpty ? name : alt))>"
        out += "<svg class=\"pw-asset-box\" viewBox=\"0 0 \(width) \(height)\" aria-hidden=\"true\" focusable=\"false\"></svg>"
        out += "<span class=\"pw-asset-label\" aria-hidden=\"true\">\(HTMLText.escape(name))</span></div>"
    }

    /// Empty space of the authored height: an empty `<svg>` whose `height` attribute is a
    /// presentation attribute, which CSP allows where an inline style is refused.
    mutating func spacer(_ fields: JSONObject) {
        guard let height = fields.number("height") else { return }
        let pixels = Int(min(max(height, 0), 10_000).rounded())
        out += "<svg class=\"pw-spacer\" width=\"1\" height=\"\(pixels)\" aria-hidden=\"true\" focusable=\"false\"></svg>"
    }

    /// Whole-number width and height with the given ratio, precise to a thousandth.
    static func box(_ ratio: Double) -> (width: Int, height: Int) {
        let height = 1000
        return (max(1, Int((Double(height) * ratio).rounded())), height)
    }
}
