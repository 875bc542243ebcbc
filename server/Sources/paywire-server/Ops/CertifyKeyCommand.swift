import Foundation
import PaywireModel
import ServerDomain

/// `paywire-server --certify-signing-key KEY.pem --root-key ROOT.pem [--valid-for-days N]
/// [--clock-offset-ms N]`: a root's certificate of a short-lived response signing key
/// (`SigningKeyCertificate`), printed as the one line a server is given beside the key
/// (`--signing-key-certificate FILE`). Run where the root's private key is kept (offline, never
/// on a server); apps pin the root's public half (`response_verification.root_keys`) and the key
/// rotates without a release. Its life starts on the system's clock, moved as the server's
/// `--clock-offset-ms` moves it, so a test on another date certifies on the date its server and
/// apps live on.
enum CertifyKeyCommand {
    /// The usage line `--help` adds.
    static let usage = """
               paywire-server --certify-signing-key KEY.pem --root-key ROOT.pem [--valid-for-days N] [--clock-offset-ms N]
                                              (a root's certificate of a signing key, for --signing-key-certificate; default 30 days
                                              from now, on the clock --clock-offset-ms moves as the server's)
        """

    /// The exit status when `arguments` are this command (after doing it); nil when they are not.
    static func run(_ arguments: [String], now: Int) -> Int32? {
        guard let first = arguments.first, first == "--certify-signing-key" || first.hasPrefix("--certify-signing-key=") else { return nil }
        var keyPath = "", rootPath = "", days = 30, offset = 0
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let (flag, inline) = Flags.split(argument)
            guard let value = inline ?? iterator.next() else { return Flags.fail("\(flag) needs a value\n\(usage)", status: 2) }
            switch flag {
            case "--certify-signing-key": keyPath = value
            case "--root-key": rootPath = value
            case "--valid-for-days":
                guard let parsed = Int(value), (1...3650).contains(parsed) else { return Flags.fail("--valid-for-days takes 1 to 3650", status: 2) }
                days = parsed
            case "--clock-offset-ms":
                let range = Options.clockOffsetRange
                guard let parsed = Int(value), range.contains(parsed) else {
                    return Flags.fail("--clock-offset-ms needs a whole number in \(range.lowerBound)...\(range.upperBound)", status: 2)
                }
                offset = parsed
            default: return Flags.fail("--certify-signing-key does not take '\(argument)'\n\(usage)", status: 2)
            }
        }
        guard !keyPath.isEmpty, !rootPath.isEmpty else { return Flags.fail("--certify-signing-key needs a key and --root-key\n\(usage)", status: 2) }
        do {
            let key = try ResponseSigner(pems: [(keyPath, try text(keyPath))]).keys[0]
            let root = try ResponseSigner(pems: [(rootPath, try text(rootPath))])
            let certificate = try root.certify(key, expiresAt: now + offset + days * 86_400_000)
            FileHandle.standardOutput.write(Data((certificate.text + "\n").utf8))
            return 0
        } catch {
            return Flags.fail("\(error)", status: 1)
        }
    }

    private static func text(_ path: String) throws -> String {
        guard let text = Flags.text(ofFile: path) else { throw ResponseSigner.Problem(description: "cannot read \(path)") }
        return text
    }
}
