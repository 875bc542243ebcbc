import Foundation
import ServerDomain
import X509

extension JWSVerifier {
    /// Reads the roots of `--app-store-root`: a PEM file (one or more certificates) or a DER
    /// file; no file, no roots.
    init(rootFile path: String?, requireMarkers: Bool = true) throws {
        guard let path else {
            self.init(roots: [], requireMarkers: requireMarkers)
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw SignedProblem("root", "cannot read \(path)") }
        self.init(roots: try Self.roots(parsing: Array(data)), requireMarkers: requireMarkers)
    }
}
