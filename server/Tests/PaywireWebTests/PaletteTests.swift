import Foundation
import Testing
@testable import PaywireWeb

/// WCAG 2.2 AA for every colour pair the stylesheet draws text or outlines with.
@Suite struct PaletteTests {
    /// Relative luminance of an sRGB colour, as WCAG defines it.
    static func luminance(_ colour: Colour) -> Double {
        let channels = [(colour.rgb >> 16) & 0xFF, (colour.rgb >> 8) & 0xFF, colour.rgb & 0xFF].map { channel -> Double in
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }

    static func contrast(_ first: Colour, _ second: Colour) -> Double {
        let (a, b) = (luminance(first), luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    @Test func theRatioIsWCAGs() {
        #expect(abs(Self.contrast(Colour(0x000000), Colour(0xFFFFFF)) - 21) < 0.001)
        #expect(abs(Self.contrast(Colour(0x777777), Colour(0xFFFFFF)) - 4.48) < 0.01)
    }

    @Test func everyTextColourHasAtLeast4Point5To1OnItsBackground() {
        for pair in Palette.textPairs {
            let ratio = Self.contrast(pair.foreground, pair.background)
            #expect(ratio >= 4.5, "\(pair.name): \(ratio)")
        }
    }

    @Test func everyControlOutlineHasAtLeast3To1OnItsBackground() {
        for pair in Palette.outlinePairs {
            let ratio = Self.contrast(pair.foreground, pair.background)
            #expect(ratio >= 3, "\(pair.name): \(ratio)")
        }
    }

    @Test func coloursAreWrittenAsCSSHex() {
        #expect(Colour(0x0A0B0C).css == "#0a0b0c")
        #expect(Palette.page.css == "#ffffff")
    }

    @Test func thePageIsReadableOnAPhoneAndADesktop() {
        let html = Fixtures.page(Fixtures.allSections)
        #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        #expect(html.contains(".pw-page{max-width:640px;margin:0 auto"))
        #expect(html.contains("@media (max-width:640px){.pw-layout-grid .pw-sections{grid-template-columns:minmax(0,1fr)}}"))
        #expect(html.contains("@media (prefers-reduced-motion:no-preference)"))
        #expect(html.contains(":focus-visible{outline:3px solid"))
        #expect(html.contains("<html lang=\"en\">"))
    }
}
