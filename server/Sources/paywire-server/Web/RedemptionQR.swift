import CQREncode

/// A redemption link as a QR code a phone scans, drawn as inline SVG: libqrencode makes the
/// modules (error correction M, 8-bit mode, case kept), and each dark one is a unit square of one
/// path, inside a quiet zone of 4 modules, as the QR standard asks. Colours are attributes, not
/// styles, so the page's Content-Security-Policy allows them.
enum RedemptionQR {
    static let quietZone = 4

    /// The SVG, `size` CSS pixels square; nil if libqrencode cannot encode the text (too long
    /// for any version, or out of memory): the page then shows the link alone.
    static func svg(_ text: String, size: Int = 192) -> String? {
        guard let modules = modules(text) else { return nil }
        let width = modules.width, full = width + 2 * quietZone
        var path = ""
        for y in 0..<width {
            for x in 0..<width where modules.dark[y * width + x] {
                path += "M\(x + quietZone) \(y + quietZone)h1v1h-1z"
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pw-qr\" width=\"\(size)\" height=\"\(size)\" viewBox=\"0 0 \(full) \(full)\""
            + " role=\"img\" aria-label=\"QR code of the link\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(full)\" height=\"\(full)\" fill=\"#ffffff\"/><path fill=\"#000000\" d=\"\(path)\"/></svg>"
    }

    /// The symbol's width and its modules row by row (true: dark).
    static func modules(_ text: String) -> (width: Int, dark: [Bool])? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        // The least significant bit of each byte is the module's colour (qrencode.h).
        let dark = (0..<(width * width)).map { data[$0] & 1 == 1 }
        return (width, dark)
    }
}
