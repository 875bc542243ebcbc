import PaywireModel
import PaywireWire

extension Outbox {
    /// `flush_analytics`: answered once every analytics record queued now has left
    /// (acknowledged, or refused and dropped), or with `timeout` when `timeoutMilliseconds`
    /// passes first.
    func flush(timeoutMilliseconds: WideInt) throws(WireError) -> CallOutcome {
        let queued = store.count(in: .events)
        guard let backend else {
            throw WireError(.invalidState, "no transport is configured: \(queued) record(s) stay queued",
                            details: JSONObject([("remaining", .number(JSONNumber(queued)))]))
        }
        guard lanes[.events]?.machine.isStopped != true else {
            throw WireError(.unauthorized, "the backend refused the api_key: analytics delivery is stopped",
                            details: JSONObject([("remaining", .number(JSONNumber(queued)))]))
        }
        guard queued > 0 else { return .done(Outbox.flushed) }
        let (token, outcome) = try calls.promise("flush_analytics", waitsOnHost: backend.carriedByHost,
                                                 budget: timeoutMilliseconds)
        let deadline = timers.schedule(after: timeoutMilliseconds) { [self] in self.flushDeadlinePassed(token) }
        waiters.append(FlushWaiter(callToken: token, upToSeq: store.nextSeq(in: .events) - 1, deadlineToken: deadline))
        drive(.events) { $0.flushRequested(queued: queued) }
        return outcome
    }

    /// The client is being freed: a last batch of each lane leaves now when it can be answered
    /// without the host (the built-in transport). Returns how long the boundary may wait.
    func beginClosing() -> WideInt? {
        guard let backend, !backend.carriedByHost, config.closeFlushMilliseconds > 0 else { return nil }
        for lane in OutboxLane.allCases {
            let queued = store.count(in: lane)
            drive(lane) { $0.flushRequested(queued: queued) }
        }
        return isSending ? config.closeFlushMilliseconds : nil
    }

    /// Whether a batch is in flight in any lane.
    var isSending: Bool { lanes.values.contains { $0.inFlight != nil } }

    private func deliveryTimerFired(_ lane: OutboxLane, _ timer: DeliveryMachine.Timer) {
        lanes[lane]?.timerTokens.removeValue(forKey: timer)
        let queued = store.count(in: lane)
        drive(lane) { $0.timerFired(timer, queued: queued) }
    }

    private func flushDeadlinePassed(_ callToken: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.callToken == callToken }) else { return }
        let waiter = waiters.remove(at: index)
        let remaining = (try? store.count(in: .events, upTo: waiter.upToSeq)) ?? 0
        calls.complete(callToken, .failure(WireError(.timeout, "\(remaining) record(s) were not delivered in time",
                                                     details: JSONObject([("remaining", .number(JSONNumber(remaining)))]))))
    }

    /// The backend took an identity record: its answer, read as the model reads it, goes to
    /// the profile store with the request it answers. When the device moved to the customer's
    /// profile, what it said about the user goes to that profile's routes too.
    private func identityAnswered(_ record: OutboxRecord, response: HTTPResponse) {
        guard let request = try? Identity.Request.decode(record.body) else {
            log(.warn, "an identity record kept by this device cannot be read: its answer is not applied",
                details: [("event_id", .string(record.eventId))])
            return
        }
        let answer: Result<Identity.Answer, WireError>
        do throws(WireError) {
            let read = try Identity.Answer.decode(response.body)
            // The credential an identity answer brings is the profile's it names (the customer's,
            // when the device moves to it).
            if let issued = response.header(ProfileCredentials.header) { backend?.credentials.keep(issued, for: read.profileId) }
            answer = .success(read)
        } catch {
            answer = .failure(error)
        }
        if let moved = profiles.identityAnswered(request, answer: answer, eventId: record.eventId, trust: response.trust) {
            keepProfileData(of: moved)
        }
    }

    /// A profile's record the backend will never take: an `error` log event naming its code.
    /// An identity the backend could not verify (`identity_unverified`: no token, or one that
    /// is expired or not for this customer) says how to send it again.
    private func profileRecordRefused(_ record: OutboxRecord, response: HTTPResponse) {
        let code = RemoteSource.errorCode(response.body) ?? "http_\(response.status)"
        let advice = code == APIErrorCode.identityUnverified.rawValue ? ": identify again with a fresh identity_token from the app's backend" : ""
        log(.error, "the backend refused the profile's record (HTTP \(response.status), \(code)); it is dropped\(advice)",
            details: [("event_id", .string(record.eventId)), ("route", .string(Outbox.route(of: record).route)),
                      ("backend_code", .string(code))])
    }

    /// The backend's answer to batch `number` of `lane`.
    private func batchAnswered(_ lane: OutboxLane, _ number: UInt64, _ outcome: HTTPOutcome) {
        guard let batch = lanes[lane]?.inFlight, batch.number == number else { return }
        let answer = Outbox.answer(outcome, now: clock.nowMilliseconds())
        if lane == .purchases, case .response(let response) = outcome {
            // The part that made the record acts on the verdict before the record leaves; the
            // profile's records need no act beyond leaving, but a refusal is worth an error.
            for record in batch.records {
                switch (answer, record.kind == .money) {
                case (.accepted, true): purchaseAnswers.delivered(record, response: response)
                case (.refused, true): purchaseAnswers.refused(record, response: response)
                case (.accepted, false) where record.kind == .identity:
                    identityAnswered(record, response: response)
                case (.refused, false):
                    profileRecordRefused(record, response: response)
                default: break
                }
            }
        }
        let queued = store.count(in: lane)
        let jitter = random.unit()
        drive(lane) { $0.answered(answer, queued: queued, now: clock.nowMilliseconds(), jitter: jitter) }
    }

    /// The profile a record names (its body's `profile_id`); nil for a record that names none.
    static func profileId(of record: OutboxRecord) -> String? {
        guard case .object(let object)? = try? JSONValue(parsing: record.body), case .string(let id)? = object["profile_id"] else { return nil }
        return id
    }

    // MARK: - Running a lane's actions

    /// Gives the lane's machine one input and runs what it returns.
    func drive(_ lane: OutboxLane, _ input: (inout DeliveryMachine) -> [DeliveryMachine.Action]) {
        guard backend != nil, var state = lanes[lane] else { return }
        let actions = input(&state.machine)
        lanes[lane] = state
        run(actions, in: lane)
    }

    private func run(_ actions: [DeliveryMachine.Action], in lane: OutboxLane) {
        for action in actions {
            switch action {
            case .send(let selection): send(selection, in: lane)
            case .schedule(let timer, let milliseconds):
                if let old = lanes[lane]?.timerTokens[timer] { timers.cancel(old) }
                lanes[lane]?.timerTokens[timer] = timers.schedule(after: milliseconds) { [self] in
                    self.deliveryTimerFired(lane, timer)
                }
            case .cancel(let timer):
                if let old = lanes[lane]?.timerTokens.removeValue(forKey: timer) { timers.cancel(old) }
            case .acknowledge(let ids): acknowledge(ids, in: lane)
            case .drop(let ids, let status): drop(ids, status: status, in: lane)
            case .log(let level, let message): log(level, message, details: [("lane", .string(lane == .events ? "events" : "purchases"))])
            }
        }
        if lane == .events { settleWaiters() }
    }

    private func send(_ selection: DeliveryMachine.Selection, in lane: OutboxLane) {
        guard let backend else { return }
        var records: [OutboxRecord]
        do throws(WireError) {
            switch selection {
            case .oldest(let limit): records = try store.oldest(in: lane, maxRecords: limit, maxBytes: config.batchMaxBytes)
            case .ids(let ids): records = try store.records(withIds: ids)
            }
        } catch {
            log(.error, "could not read the outbox: \(error.message)")
            records = []
        }
        lanes[lane]?.inFlight = nil
        guard !records.isEmpty else {
            drive(lane) { $0.sent([]) }
            return
        }
        // One profile a request: its credential opens that profile only.
        let profileId = Outbox.profileId(of: records[0])
        records = Array(records.prefix { Outbox.profileId(of: $0) == profileId })
        let dropped = lane == .events ? store.droppedCount : 0
        let number = nextBatch
        nextBatch += 1
        lanes[lane]?.inFlight = InFlight(number: number, records: records, droppedReported: dropped)
        let ids = records.map { $0.eventId }
        drive(lane) { $0.sent(ids) }
        let body = lane == .events ? EventBatch.encode(records.map { $0.body }, droppedCount: dropped) : records[0].body
        let (method, route) = lane == .events ? ("POST", "events") : Outbox.route(of: records[0])
        // A purchase's and an identity's answers carry the profile: their signatures are checked.
        let carriesAccess = lane == .purchases && (records[0].kind == .money || records[0].kind == .identity)
        backend.send(method: method, url: backend.url(route: route), headers: [("accept", "application/json")], body: body,
                     carriesAccess: carriesAccess, profileId: profileId, keepsCredential: records[0].kind != .identity) { [self] outcome in
            self.batchAnswered(lane, number, outcome)
        }
    }

    private func acknowledge(_ ids: [String], in lane: OutboxLane) {
        let reported = lanes[lane]?.inFlight?.droppedReported ?? 0
        lanes[lane]?.inFlight = nil
        do throws(WireError) {
            try store.remove(ids, reportedDropped: reported)
        } catch {
            // The backend has them: sending them again later is safe (it deduplicates).
            log(.error, "could not delete \(ids.count) delivered record(s): \(error.message)")
        }
        if reported > 0 {
            log(.warn, "\(reported) record(s) dropped while the analytics queue was full were reported to the backend",
                details: [("dropped", .number(JSONNumber(reported)))])
        }
    }

    private func drop(_ ids: [String], status: Int, in lane: OutboxLane) {
        lanes[lane]?.inFlight = nil
        do throws(WireError) { try store.remove(ids, reportedDropped: 0) } catch {
            log(.error, "could not delete refused record(s): \(error.message)")
        }
        // A refused purchase was already reported by the part that acts on the verdict.
        guard lane == .events else { return }
        log(.error, "the backend refused \(ids.count) record(s) (HTTP \(status)); they are dropped",
            details: [("event_ids", .array(ids.map { .string($0) })), ("status", .number(JSONNumber(status)))])
    }

    /// Answers every flush waiting for records that have all left, and every one when delivery
    /// stopped for good (refused credentials): none of them could ever be answered otherwise.
    private func settleWaiters() {
        guard !waiters.isEmpty else { return }
        if lanes[.events]?.machine.isStopped == true {
            let remaining = store.count(in: .events)
            for waiter in waiters {
                timers.cancel(waiter.deadlineToken)
                calls.complete(waiter.callToken, .failure(WireError(.unauthorized, "the backend refused the api_key: analytics delivery is stopped",
                                                                    details: JSONObject([("remaining", .number(JSONNumber(remaining)))]))))
            }
            waiters.removeAll()
            return
        }
        let oldest = ((try? store.oldestSeq(in: .events)) ?? nil) ?? .max
        waiters.removeAll { waiter in
            guard oldest > waiter.upToSeq else { return false }
            timers.cancel(waiter.deadlineToken)
            calls.complete(waiter.callToken, Outbox.flushed)
            return true
        }
    }

    private static let flushed = CallResponse.success { writer in writer.object { writer in writer.member("remaining", 0) } }
}
