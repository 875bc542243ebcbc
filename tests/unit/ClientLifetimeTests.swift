import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// A client's parts hold each other only one way: dropping the client frees them all, whatever
/// is still in flight. A cycle here leaks every client an app creates and frees (and its events
/// and timers with it); valgrind and the fuzzers' leak checks would find it only in the slow runs.
@Suite struct ClientLifetimeTests {
    /// Weak references to a client and the parts that hold closures for later (timers, host
    /// requests, the profile fetch): all nil once the client is dropped.
    private struct Parts {
        weak var client: Client?
        weak var timers: Timers?
        weak var broker: HostRequestBroker?
        weak var backend: Backend?
        weak var profiles: ProfileStore?
        weak var fetch: ProfileFetch?
        weak var outbox: Outbox?
        weak var purchases: Purchases?

        init(_ client: Client) {
            (self.client, timers, broker, backend) = (client, client.timers, client.broker, client.backend)
            (profiles, fetch, outbox, purchases) = (client.profiles, client.profiles.fetch, client.outbox, client.purchases)
        }

        var alive: [String] {
            [("client", client as AnyObject?), ("timers", timers), ("broker", broker), ("backend", backend),
             ("profiles", profiles), ("fetch", fetch), ("outbox", outbox), ("purchases", purchases)]
                .compactMap { $0.1 == nil ? nil : $0.0 }
        }
    }

    private static let hostBackend = #"{"profile_id":"p","transport":{"type":"host","base_url":"https://api.test"},"host_request_timeout_ms":8000}"#

    @Test func aClientFreedWhileItsStartupProfileFetchWaitsIsFreed() throws {
        let sink = RecordingSink()
        var parts: Parts?
        do {
            let client = try Client(config: try ClientConfig.parse(Array(ClientLifetimeTests.hostBackend.utf8)), sink: sink,
                                    scheduler: ManualScheduler(), clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(), files: ReadingFileSystem())
            parts = Parts(client)
            #expect(sink.events.map(\.name).contains("host_request"))
        }
        #expect(parts?.alive == [])
    }

    @Test func aClientFreedWhileRefreshProfileWaitsForTheBackendIsFreed() throws {
        let sink = RecordingSink()
        var parts: Parts?
        do {
            let client = try Client(config: try ClientConfig.parse(Array(ClientLifetimeTests.hostBackend.utf8)), sink: sink,
                                    scheduler: ManualScheduler(), clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(), files: ReadingFileSystem())
            parts = Parts(client)
            _ = client.call(method: "refresh_profile", params: Array("{}".utf8))
            _ = client.call(method: "get_paywall", params: Array(#"{"placement_id":"onboarding"}"#.utf8))
        }
        #expect(parts?.alive == [])
    }
}
