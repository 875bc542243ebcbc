import PaywireWire

/// An sRGB colour, kept as a number so tests can compute contrast from the same value the
/// stylesheet writes.
struct Colour: Equatable, Sendable {
    /// `0xRRGGBB`.
    let rgb: UInt32

    init(_ rgb: UInt32) { self.rgb = rgb & 0xFF_FFFF }

    /// `#rrggbb`, as CSS reads it.
    var css: String { "#" + Hex.encode([UInt8(truncatingIfNeeded: rgb >> 16), UInt8(truncatingIfNeeded: rgb >> 8), UInt8(truncatingIfNeeded: rgb)]) }
}

/// The page's colours, by role. Every colour the stylesheet uses is here, and every pair of
/// them that the stylesheet puts text on is listed in `textPairs`, so the contrast test covers
/// every text the page shows (WCAG 2.2 AA: 4.5:1 for text, 3:1 for control outlines).
enum Palette {
    /// The page behind everything.
    static let page = Colour(0xFFFFFF)
    /// Cards, plan boxes, quotes: a quiet raise above the page.
    static let surface = Colour(0xF4F5F8)
    /// Body text.
    static let ink = Colour(0x1A1D24)
    /// Secondary text: subtitles, periods, legal print.
    static let muted = Colour(0x4A5160)
    /// The one brand colour: buttons, badges, the selected plan's outline, focus rings.
    static let accent = Colour(0x3B2FC9)
    /// A button under the pointer.
    static let accentHover = Colour(0x2D2399)
    /// Text on the accent.
    static let onAccent = Colour(0xFFFFFF)
    /// The selected plan's background.
    static let selected = Colour(0xEEEBFF)
    /// Outlines of unselected controls (plan boxes, the promo field, the switch's track).
    static let outline = Colour(0x6B7180)
    /// Rules between things; decoration only, so no contrast is owed.
    static let divider = Colour(0xD5D8E0)
    /// The "Save n%" chip.
    static let saveBackground = Colour(0xE3F5EA)
    static let saveInk = Colour(0x145A32)
    /// Stars of a rating.
    static let star = Colour(0x8A5A00)
    /// The box drawn for an image the browser cannot fetch.
    static let assetBackground = Colour(0xE4E7EE)
    static let assetInk = Colour(0x3A404D)
    /// A preview's note about something not drawn.
    static let noteBackground = Colour(0xFFF4D6)
    static let noteInk = Colour(0x5C4400)

    /// Every text colour on every background the stylesheet sets it on.
    static let textPairs: [(name: String, foreground: Colour, background: Colour)] = [
        ("ink on page", ink, page), ("ink on surface", ink, surface), ("ink on selected", ink, selected),
        ("muted on page", muted, page), ("muted on surface", muted, surface), ("muted on selected", muted, selected),
        ("accent on page", accent, page), ("accent on surface", accent, surface), ("accent on selected", accent, selected),
        ("on-accent on accent", onAccent, accent), ("on-accent on accent hover", onAccent, accentHover),
        ("save ink on save", saveInk, saveBackground),
        ("star on page", star, page), ("star on surface", star, surface),
        ("asset ink on asset", assetInk, assetBackground), ("note ink on note", noteInk, noteBackground),
    ]

    /// Outlines that show a control's edge or focus, on what they sit on (3:1 is owed).
    static let outlinePairs: [(name: String, foreground: Colour, background: Colour)] = [
        ("outline on page", outline, page), ("outline on surface", outline, surface), ("outline on selected", outline, selected),
        ("focus on page", accent, page), ("focus on surface", accent, surface),
    ]
}
