import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// Collects events instead of queueing them for a host.
final class RecordingSink: EventSink, @unchecked Sendable {
    var events: [Event] = []
    /// What the sink answers when asked whether the host fell behind.
    var isBacklogged = false
    func emit(_ event: Event) { events.append(event) }
}

/// Keeps the timers a client asks for, so a test fires them when it chooses.
final class ManualScheduler: TimerScheduler, @unchecked Sendable {
    var scheduled: [(milliseconds: Int, token: UInt64)] = []
    func schedule(afterMilliseconds milliseconds: Int, token: UInt64) { scheduled.append((milliseconds, token)) }
}

@Suite struct ClientTests {
    private func client(_ config: String, scheduler: ManualScheduler = ManualScheduler()) throws -> (Client, RecordingSink) {
        let sink = RecordingSink()
        return (try Client(config: try ClientConfig.parse(Array(config.utf8)), sink: sink, scheduler: scheduler, clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(),
                           files: ReadingFileSystem()), sink)
    }

    private func call(_ client: Client, _ method: String, _ params: String) -> CallResponse {
        client.call(method: method, params: Array(params.utf8))
    }

    @Test func unansweredHostRequestFailsTheFlowWhenItsDeadlineFires() throws {
        let scheduler = ManualScheduler()
        let (client, sink) = try client(#"{"profile_id":"p","store":{"type":"host"},"host_request_timeout_ms":500,"fallback":{"path":"tests/conformance/bundles/basic.json"}}"#, scheduler: scheduler)
        let paywall = call(client, "get_paywall", #"{"placement_id":"onboarding"}"#)
        guard case .object(let envelope) = try JSONParser.parse(paywall.envelope), let served = envelope["success"] else {
            Issue.record("no paywall"); return
        }
        let created = call(client, "create_paywall_view", String(decoding: JSONWriter.encode(.object(JSONObject([("paywall", served)]))), as: UTF8.self))
        #expect(created.status == .ok)
        #expect(call(client, "paywall_view_restore", #"{"view_id":"paywall-view-1"}"#).status == .ok)
        #expect(sink.events.map(\.name) == ["did_load_latest_profile", "paywall_view_did_start_restore", "host_request"])
        #expect(scheduler.scheduled.map(\.milliseconds) == [500])
        // A second restore while the first waits is refused and changes nothing.
        #expect(call(client, "paywall_view_restore", #"{"view_id":"paywall-view-1"}"#).status == .failed)
        client.timerFired(scheduler.scheduled[0].token)
        #expect(sink.events.map(\.name).suffix(2) == ["log", "paywall_view_did_fail_restore"])
        // The view recovered: a new restore starts.
        #expect(call(client, "paywall_view_restore", #"{"view_id":"paywall-view-1"}"#).status == .ok)
        // Firing the old token again does nothing.
        let count = sink.events.count
        client.timerFired(scheduler.scheduled[0].token)
        #expect(sink.events.count == count)
    }

    @Test func aHostThatFellBehindHasScreenInputsRefusedWithBusyAndReadsStillRun() throws {
        let (client, sink) = try client(#"{"profile_id":"p","store":{"type":"host"},"fallback":{"path":"tests/conformance/bundles/basic.json"}}"#)
        let paywall = call(client, "get_paywall", #"{"placement_id":"onboarding"}"#)
        guard case .object(let envelope) = try JSONParser.parse(paywall.envelope), let served = envelope["success"] else {
            Issue.record("no paywall"); return
        }
        let created = call(client, "create_paywall_view", String(decoding: JSONWriter.encode(.object(JSONObject([("paywall", served)]))), as: UTF8.self))
        #expect(created.status == .ok)
        sink.isBacklogged = true
        let before = sink.events.map(\.name)
        let refused = call(client, "paywall_view_select_product", #"{"view_id":"paywall-view-1","product_id":"monthly"}"#)
        #expect(refused.status == .busy)
        #expect(try result(refused).flatMap { value -> JSONValue? in
            if case .object(let error) = value { return error["code"] } else { return nil }
        } == .string("busy"))
        #expect(call(client, "get_profile", "{}").status == .ok)
        #expect(sink.events.map(\.name) == before)
        sink.isBacklogged = false
        #expect(call(client, "paywall_view_select_product", #"{"view_id":"paywall-view-1","product_id":"monthly"}"#).status == .ok)
    }

    @Test func aHostRequestFindingTheHostBehindIsNeverEmittedAndFailsWithBusyAfterTheStep() {
        let sink = RecordingSink()
        let scheduler = ManualScheduler()
        let timers = Timers(scheduler: scheduler)
        let log = Log(level: .warn, sink: sink)
        let broker = HostRequestBroker(timeout: 500, sink: sink, backpressure: Backpressure(sink: sink, eventQueueLimit: 16),
                                       timers: timers, log: log)
        sink.isBacklogged = true
        var outcomes: [HostOutcome] = []
        broker.ask(.storePurchase, origin: nil, payload: { _ in }) { outcomes.append($0) }
        #expect(sink.events.isEmpty)
        #expect(outcomes.isEmpty)                          // not inside ask: the asking step finishes first
        #expect(scheduler.scheduled.map(\.milliseconds) == [0])
        timers.fire(scheduler.scheduled[0].token)
        guard outcomes.count == 1, case .timedOut(let error) = outcomes[0] else { Issue.record("no refusal"); return }
        #expect(error.code == .busy)
        #expect(sink.events.map(\.name) == ["log"])
        sink.isBacklogged = false
        broker.ask(.storePurchase, origin: nil, payload: { _ in }) { outcomes.append($0) }
        #expect(sink.events.map(\.name) == ["log", "host_request"])
    }

    private func result(_ response: CallResponse) throws -> JSONValue? {
        guard case .object(let envelope) = try JSONParser.parse(response.envelope) else { return nil }
        return envelope["success"] ?? envelope["error"]
    }

    @Test func identifyClaimsAnonymousProfileAndSwitchesForAnotherCustomer() {
        let anonymous = Profile(profileId: "p", customerUserId: nil)
        #expect(ProfileStore.identified(anonymous, as: "a", newProfileId: { "new" }) == Profile(profileId: "p", customerUserId: "a"))
        let alice = Profile(profileId: "p", customerUserId: "a")
        #expect(ProfileStore.identified(alice, as: "a", newProfileId: { "new" }) == nil)
        let bob = ProfileStore.identified(alice, as: "b", newProfileId: { "new" })
        #expect(bob?.customerUserId == "b")
        #expect(bob?.profileId == "new")
    }

    @Test func generatedProfileIdsAreVersion4UUIDs() {
        let random = CountingRandom()
        let id = random.uuidV4()
        let parts = id.split(separator: "-")
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
        #expect(parts[2].first == "4")
        #expect(["8", "9", "a", "b"].contains(parts[3].first.map(String.init)))
        #expect(random.uuidV4() != id)
    }

    @Test func servedPaywallBytesAreReusedUntilTheProfileChanges() throws {
        let (client, _) = try client(#"{"profile_id":"profile-000","fallback":{"path":"tests/conformance/bundles/basic.json"}}"#)
        let first = client.call(method: "get_paywall", params: Array(#"{"placement_id":"onboarding"}"#.utf8))
        let second = client.call(method: "get_paywall", params: Array(#"{"placement_id":"onboarding"}"#.utf8))
        #expect(first.status == .ok)
        #expect(first.envelope == second.envelope)
        _ = client.call(method: "logout", params: nil)
        let afterLogout = client.call(method: "get_paywall", params: Array(#"{"placement_id":"onboarding"}"#.utf8))
        #expect(afterLogout.status == .ok)
    }

    @Test func logEventsRespectTheLogLevel() throws {
        let (client, sink) = try client(#"{"profile_id":"p","log_level":"error","extra":1}"#)
        // The profile snapshot only: the unknown key's warn event is below the level.
        #expect(sink.events.map(\.name) == ["did_load_latest_profile"])
        _ = client.call(method: "set_log_level", params: Array(#"{"log_level":"info"}"#.utf8))
        _ = client.call(method: "log_show_paywall", params: Array(#"{"paywall":{"placement":{"developer_id":"x"},"variation_id":"v","products":[]}}"#.utf8))
        #expect(sink.events.map(\.name) == ["did_load_latest_profile", "log"])
    }

    @Test func unknownMethodIsReportedWithItsName() throws {
        let (client, _) = try client("{}")
        let response = client.call(method: "nope", params: nil)
        #expect(response.status == .unknownMethod)
        guard case .object(let error)? = try result(response) else { Issue.record("no error"); return }
        #expect(error["code"] == .string("unknown_method"))
    }
}
