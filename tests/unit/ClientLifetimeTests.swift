import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// A client's parts hold the replies they are owed strongly (the library has no weak
/// references: Embedded Swift has none), so the tables those replies wait in own the parts until
/// `tearDown()` empties them. Once torn down (the boundary does it when the client is freed),
/// dropping the client frees every part, whatever was still in flight, and nothing it was owed
/// runs. A cycle left here leaks every client an app creates and frees; valgrind and the
/// fuzzers' leak checks would find it only in the slow runs.
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
        weak var loader: PlacementLoader?
        weak var paywallViews: PaywallViews?
        weak var onboardingViews: OnboardingViews?
        weak var accessClock: AccessClock?
        weak var ledger: PurchaseLedger?

        init(_ client: Client) {
            (self.client, timers, broker, backend) = (client, client.timers, client.broker, client.backend)
            (profiles, fetch, outbox, purchases) = (client.profiles, client.profiles.fetch, client.outbox, client.purchases)
            (loader, paywallViews, onboardingViews) = (client.loader, client.paywallViews, client.onboardingViews)
            (accessClock, ledger) = (client.accessClock, client.purchases.ledger)
        }

        var alive: [String] {
            [("client", client as AnyObject?), ("timers", timers), ("broker", broker), ("backend", backend),
             ("profiles", profiles), ("fetch", fetch), ("outbox", outbox), ("purchases", purchases), ("loader", loader),
             ("paywallViews", paywallViews), ("onboardingViews", onboardingViews), ("accessClock", accessClock), ("ledger", ledger)]
                .compactMap { $0.1 == nil ? nil : $0.0 }
        }
    }

    private static let hostBackend = #"{"profile_id":"p","transport":{"type":"host","base_url":"https://api.test"},"host_request_timeout_ms":8000}"#

    @Test func aClientTornDownWhileItsStartupProfileFetchWaitsIsFreed() throws {
        let sink = RecordingSink()
        var parts: Parts?
        do {
            let client = try Client(config: try ClientConfig.parse(Array(ClientLifetimeTests.hostBackend.utf8)), sink: sink,
                                    scheduler: ManualScheduler(), clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(), files: ReadingFileSystem())
            parts = Parts(client)
            #expect(sink.events.map(\.name).contains("host_request"))
            client.tearDown()
        }
        #expect(parts?.alive == [])
    }

    @Test func aClientTornDownWhileRefreshProfileWaitsForTheBackendIsFreed() throws {
        let sink = RecordingSink()
        var parts: Parts?
        do {
            let client = try Client(config: try ClientConfig.parse(Array(ClientLifetimeTests.hostBackend.utf8)), sink: sink,
                                    scheduler: ManualScheduler(), clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(), files: ReadingFileSystem())
            parts = Parts(client)
            _ = client.call(method: "refresh_profile", params: Array("{}".utf8))
            _ = client.call(method: "get_paywall", params: Array(#"{"placement_id":"onboarding"}"#.utf8))
            client.tearDown()
        }
        #expect(parts?.alive == [])
    }

    private static let hostStoreWithBundle =
        #"{"profile_id":"p","store":{"type":"host"},"host_request_timeout_ms":500,"fallback":{"path":"tests/conformance/bundles/basic.json"}}"#

    @Test func aClientTornDownWhileAViewWaitsForTheStoreIsFreedAndRunsNothingItWasOwed() throws {
        let sink = RecordingSink()
        let scheduler = ManualScheduler()
        var parts: Parts?
        do {
            let client = try Client(config: try ClientConfig.parse(Array(ClientLifetimeTests.hostStoreWithBundle.utf8)), sink: sink,
                                    scheduler: scheduler, clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(), files: ReadingFileSystem())
            parts = Parts(client)
            let paywall = client.call(method: "get_paywall", params: Array(#"{"placement_id":"onboarding"}"#.utf8))
            guard case .object(let envelope) = try JSONParser.parse(paywall.envelope), let served = envelope["success"] else {
                Issue.record("no paywall"); return
            }
            _ = client.call(method: "create_paywall_view", params: JSONWriter.encode(.object(JSONObject([("paywall", served)]))))
            #expect(client.call(method: "paywall_view_restore", params: Array(#"{"view_id":"paywall-view-1"}"#.utf8)).status == .ok)
            #expect(client.broker.openCount == 1)
            #expect(client.timers.count >= 1)
            client.tearDown()
            #expect(client.broker.openCount == 0)
            #expect(client.timers.count == 0)
            // The restore's deadline, fired after the teardown, runs nothing and emits nothing.
            let emitted = sink.events.count
            for timer in scheduler.scheduled { client.timerFired(timer.token) }
            #expect(sink.events.count == emitted)
        }
        #expect(parts?.alive == [])
    }

    @Test func aClientNotTornDownIsKeptByTheRepliesItIsOwed() throws {
        // Why the boundary must call `tearDown`: the open host request's reply holds the parts.
        let sink = RecordingSink()
        var parts: Parts?
        var kept: Client?
        do {
            let client = try Client(config: try ClientConfig.parse(Array(ClientLifetimeTests.hostBackend.utf8)), sink: sink,
                                    scheduler: ManualScheduler(), clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(), files: ReadingFileSystem())
            parts = Parts(client)
            kept = client
        }
        kept = nil
        // The client itself goes; the parts its open request and profile fetch wait for stay.
        #expect(parts?.alive == ["timers", "broker", "backend", "profiles", "fetch", "accessClock"])
        // Emptying the tables those replies wait in (as `tearDown` does) releases them.
        parts?.broker?.cancelAll()
        parts?.timers?.cancelAll()
        parts?.fetch?.cancelAll()
        #expect(parts?.alive == [])
        _ = kept
    }
}

/// The runtime's tables drop what they hold without running it.
@Suite struct RuntimeCancelTests {
    @Test func cancelAllDropsEveryTimersWorkWithoutRunningIt() {
        let scheduler = ManualScheduler()
        let timers = Timers(scheduler: scheduler)
        var ran = 0
        timers.schedule(after: 10) { ran += 1 }
        timers.schedule(after: 20) { ran += 1 }
        #expect(timers.count == 2)
        timers.cancelAll()
        #expect(timers.count == 0)
        for timer in scheduler.scheduled { timers.fire(timer.token) }
        #expect(ran == 0)
        // Timers set afterwards still run.
        timers.schedule(after: 5) { ran += 1 }
        timers.fire(scheduler.scheduled[2].token)
        #expect(ran == 1)
    }

    @Test func cancelAllDropsOpenHostRequestsWithoutReplyingAndALaterAnswerFindsNone() throws {
        let sink = RecordingSink()
        let timers = Timers(scheduler: ManualScheduler())
        let broker = HostRequestBroker(timeout: 500, sink: sink, backpressure: Backpressure(sink: sink, eventQueueLimit: 10),
                                       timers: timers, log: Log(level: .warn, sink: sink))
        var replies = 0
        let id = broker.ask(.storeRestore, origin: nil, payload: { _ in }) { _ in replies += 1 }
        #expect(broker.openCount == 1)
        broker.cancelAll()
        #expect(broker.openCount == 0)
        let answer = try HostAnswer(Fields(JSONObject([("result", .object(JSONObject()))])))
        #expect(throws: WireError.self) { _ = try broker.answer(id, answer) }
        #expect(replies == 0)
    }
}
