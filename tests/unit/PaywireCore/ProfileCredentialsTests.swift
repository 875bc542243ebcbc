import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// The credentials the backend hands the device's profiles: kept per profile through the
/// storage port, sent only with requests naming their profile, and a refusal of one is told
/// apart from a refusal of the api key.
@Suite struct ProfileCredentialsTests {
    /// The backend's shape: 32 bytes as base64url, 43 characters.
    let credential = "Q3JlZGVudGlhbC1vbmUtb2YtcHJvZmlsZS1jMS0xMjM"

    @Test func aCredentialIsKeptPerProfileAndFoundAgainFromTheStorage() {
        let storage = MemoryStorage()
        let sink = RecordingSink()
        let kept = ProfileCredentials(storage: storage, log: Log(level: .debug, sink: sink))
        #expect(kept.headers(for: "p1").isEmpty)
        kept.keep(credential, for: "p1")
        #expect(kept.headers(for: "p1").map(\.value) == [credential])
        #expect(kept.headers(for: "p2").isEmpty, "a credential opens its own profile only")
        #expect(kept.headers(for: nil).isEmpty)
        let again = ProfileCredentials(storage: storage, log: Log(level: .debug, sink: sink))
        #expect(again.credential(for: "p1") == credential)
        #expect(sink.events.isEmpty, "nothing is logged of a credential")
    }

    @Test func anUnreadableRecordCountsAsNoCredentialAndAnOversizedHeaderIsIgnored() throws {
        let storage = MemoryStorage()
        try storage.write(ProfileCredentials.storageKey, Array("not json".utf8))
        let kept = ProfileCredentials(storage: storage, log: Log(level: .debug, sink: RecordingSink()))
        #expect(kept.credential(for: "p1") == nil)
        kept.keep(String(repeating: "x", count: 300), for: "p1")
        kept.keep("", for: "p1")
        #expect(kept.credential(for: "p1") == nil)
    }

    @Test(arguments: ["two words", "line\r\nx-injected: 1", "tab\there", "ü-not-ascii", "nul\u{0}"])
    func aCredentialNotOfTheBackendsTokenShapeIsNeitherKeptNorSentNorLogged(header: String) throws {
        let storage = MemoryStorage()
        let sink = RecordingSink()
        let kept = ProfileCredentials(storage: storage, log: Log(level: .debug, sink: sink))
        kept.keep(header, for: "p1")
        #expect(kept.headers(for: "p1").isEmpty)
        #expect(sink.events.isEmpty, "its value reaches no log")
        try storage.write(ProfileCredentials.storageKey, Array(#"{"p1":"a b","p2":"\#(credential)"}"#.utf8))
        let read = ProfileCredentials(storage: storage, log: Log(level: .debug, sink: sink))
        #expect(read.credential(for: "p1") == nil, "a record edited on disk sends no header either")
        #expect(read.credential(for: "p2") == credential)
        #expect(ProfileCredentials.isWellFormed(credential))
        #expect(!ProfileCredentials.isWellFormed(String(credential.dropLast())), "42 characters")
        #expect(!ProfileCredentials.isWellFormed(credential + "A"), "44 characters")
        #expect(!ProfileCredentials.isWellFormed(String(credential.dropLast()) + "+"), "the standard alphabet's + is not base64url")
        #expect(!ProfileCredentials.isWellFormed(String(credential.dropLast()) + "N"), "unused bits set: two texts would name one secret")
    }

    @Test func aRefusedCredentialRefusesTheRecordsAndARefusedKeyStopsTheLane() {
        func answer(_ code: String) -> BatchAnswer {
            Outbox.answer(.response(HTTPResponse(status: 401, headers: [], body: Array(#"{"error":{"code":"\#(code)","message":"m"}}"#.utf8))), now: 0)
        }
        #expect(answer("profile_credential_required") == .refused(status: 401))
        #expect(answer("profile_credential_invalid") == .refused(status: 401))
        #expect(answer("unauthorized") == .unauthorized(status: 401))
    }
}
