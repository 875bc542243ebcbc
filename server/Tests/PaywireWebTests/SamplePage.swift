import Foundation
import Testing
import PaywireWeb

/// `PAYWIRE_WEB_SAMPLE=/tmp/paywall.html swift test --filter PaywireWebTests` writes the
/// all-sections page (live mode) there, to open in a browser; without the variable it does nothing.
@Suite struct SamplePage {
    @Test func writesTheAllSectionsPageWhereTheEnvironmentSays() throws {
        guard let path = ProcessInfo.processInfo.environment["PAYWIRE_WEB_SAMPLE"], !path.isEmpty else { return }
        let html = Fixtures.page(Fixtures.allSections)
        try html.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
