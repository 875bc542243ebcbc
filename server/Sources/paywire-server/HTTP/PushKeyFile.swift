import Foundation
import NIOConcurrencyHelpers
import ServerDomain

/// The JWK set file of `--play-push-jwks`, read again when a token names a key the set does
/// not hold and the file changed since it was read. Google rotates the keys that sign push
/// tokens every few days; a timer that fetches https://www.googleapis.com/oauth2/v3/certs into
/// the file then takes effect without a restart. A file that no longer reads as a key set keeps
/// the keys read before (logged once per change), so a half-written file never opens the route.
final class PushKeyFile: Sendable {
    private struct Loaded {
        var verifier: PushTokenVerifier
        /// The file's modification time when it was read.
        var modified: Date?
        /// When the file was last looked at (seconds), so a flood of unknown keys is one stat a second.
        var lookedAt: Int
    }

    let path: String
    private let audience: String
    private let serviceAccount: String
    private let loaded: NIOLockedValueBox<Loaded>
    private let onReload: @Sendable (Result<Int, SignedProblem>) -> Void

    /// Reads the file once; a file that is not a key set stops the start (the caller's error).
    /// `onReload` hears each later read: the number of keys, or why the file was not taken.
    init(path: String, audience: String, serviceAccount: String, now: Int,
         onReload: @escaping @Sendable (Result<Int, SignedProblem>) -> Void = { _ in }) throws(SignedProblem) {
        let (bytes, modified) = try Self.read(path)
        loaded = NIOLockedValueBox(Loaded(verifier: try PushTokenVerifier(jwks: bytes, audience: audience, serviceAccount: serviceAccount),
                                          modified: modified, lookedAt: now))
        self.path = path
        self.audience = audience
        self.serviceAccount = serviceAccount
        self.onReload = onReload
    }

    /// Nil when the header's token checks out at `now` (seconds since the epoch) against the
    /// file's keys; else why not.
    func refusal(authorization: String?, now: Int) -> String? {
        let refusal = loaded.withLockedValue { $0.verifier }.refusal(authorization: authorization, now: now)
        guard refusal == PushTokenVerifier.unknownKey, let verifier = reloaded(now: now) else { return refusal }
        return verifier.refusal(authorization: authorization, now: now)
    }

    /// The verifier of the file as it is now when it changed since it was read, else nil.
    private func reloaded(now: Int) -> PushTokenVerifier? {
        loaded.withLockedValue { state -> PushTokenVerifier? in
            guard now > state.lookedAt else { return nil }
            state.lookedAt = now
            guard let modified = Self.modified(path), modified != state.modified else { return nil }
            state.modified = modified
            do throws(SignedProblem) {
                let (bytes, _) = try Self.read(path)
                state.verifier = try PushTokenVerifier(jwks: bytes, audience: audience, serviceAccount: serviceAccount)
                onReload(.success(state.verifier.keys.rsa.count))
                return state.verifier
            } catch {
                onReload(.failure(error))
                return nil
            }
        }
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    private static func read(_ path: String) throws(SignedProblem) -> ([UInt8], Date?) {
        let modified = modified(path)
        guard let data = FileManager.default.contents(atPath: path) else { throw SignedProblem("jwks", "cannot read \(path)") }
        return (Array(data), modified)
    }
}
