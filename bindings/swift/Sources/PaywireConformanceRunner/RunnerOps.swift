import Foundation
import PaywireKit

/// The primitive ops of tests/conformance/README.md, op for op as the C runner runs them, on the
/// library this binding loaded (PaywireKit's NativeLibrary: the C ABI, one function each, so an
/// op can pass NULL pointers, raw bytes and made-up handles).
final class RunnerOps {
    private let native: NativeLibrary
    private var clients: [String: OpaquePointer] = [:]
    private var inboxes: [String: Inbox] = [:]
    private var freed: Set<String> = []
    /// A real address that is not a client ("made_up_heap"); kept for the process.
    private let madeUpHeap = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)

    init(native: NativeLibrary) { self.native = native }

    func run(_ op: [String: JSONValue]) -> JSONObject {
        switch op["op"]?.stringValue ?? "" {
        case "hello": return hello()
        case "client_new": return clientNew(op)
        case "call", "call_raw": return call(op)
        case "call_async": return callAsync(op)
        case "poll": return poll(resolve(op["client"]?.stringValue), op)
        case "poll_while_freeing": return pollWhileFreeing(op)
        case "set_event_handler": return setEventHandler(op)
        case "drain_events": return drainEvents(op)
        case "client_free": return clientFree(op)
        case "string_free_null":
            native.stringFree(nil)
            return [:]
        case "decode": return RoundTrip.decode(op)
        case let other: return ["runner_error": "unknown op", "op": .string(other)]
        }
    }

    /// Frees every client a case left live, as a host must before it exits.
    func freeLiveClients() {
        for (name, client) in clients where !freed.contains(name) { native.clientFree(client) }
    }

    private func hello() -> JSONObject {
        var names: JSONObject = [:]
        for status in Int32(-13)...1 { names[String(status)] = .string(native.name(of: status)) }
        return ["runner": "swift", "abi_version": .number(JSONNumber(Int(native.abiVersion()))),
                "version": .string(native.version().map { String(cString: $0) } ?? ""),
                "header_abi_version": .number(JSONNumber(Int(NativeLibrary.headerABIVersion))), "status_names": .object(names)]
    }

    private func clientNew(_ op: [String: JSONValue]) -> JSONObject {
        let name = op["client"]?.stringValue ?? "main"
        var client: OpaquePointer?
        var out: UnsafeMutablePointer<CChar>?
        let status = Arguments.withCString(Arguments.bytes(op, "config")) { config in
            Arguments.flag(op, "null_out_client") ? native.clientNew(config, nil, &out) : native.clientNew(config, &client, &out)
        }
        var reply = result(status, out, key: "envelope")
        reply["client_set"] = .bool(client != nil)
        if let client {
            clients[name] = client
            inboxes[name] = Inbox()
            freed.remove(name)
        }
        return reply
    }

    private func call(_ op: [String: JSONValue]) -> JSONObject {
        var out: UnsafeMutablePointer<CChar>?
        let client = resolve(op["client"]?.stringValue)
        let status = Arguments.withCString(Arguments.bytes(op, "method")) { method in
            Arguments.withCString(Arguments.bytes(op, "params")) { params in
                Arguments.flag(op, "null_out_json")
                    ? native.clientCall(client, method, params, nil) : native.clientCall(client, method, params, &out)
            }
        }
        var reply = result(status, out, key: "envelope")
        if case .string(let method)? = op["method"], let envelope = reply["envelope"],
           let problem = RoundTrip.resultProblem(method: method, envelope: envelope)
        {
            reply["runner_error"] = .string(problem)
        }
        return reply
    }

    private func callAsync(_ op: [String: JSONValue]) -> JSONObject {
        var callId: UInt64 = 0
        let client = resolve(op["client"]?.stringValue)
        let status = Arguments.withCString(Arguments.bytes(op, "method")) { method in
            Arguments.withCString(Arguments.bytes(op, "params")) { params in
                Arguments.flag(op, "null_out_call_id")
                    ? native.clientCallAsync(client, method, params, nil) : native.clientCallAsync(client, method, params, &callId)
            }
        }
        var reply = statusReply(status)
        reply["call_id"] = .number(JSONNumber(callId))
        return reply
    }

    private func poll(_ client: OpaquePointer?, _ op: [String: JSONValue]) -> JSONObject {
        var out: UnsafeMutablePointer<CChar>?
        let status = native.clientPoll(client, Int32(clamping: Arguments.integer(op, "timeout_ms")), &out)
        var reply = result(status, out, key: status == 0 ? "event" : "envelope")
        if status == 0, let event = reply["event"], let problem = RoundTrip.eventProblem(event) {
            reply["runner_error"] = .string(problem)
        }
        return reply
    }

    /// Blocks in poll while another thread frees the client: the poll must come back CLOSED.
    private func pollWhileFreeing(_ op: [String: JSONValue]) -> JSONObject {
        guard let name = op["client"]?.stringValue, let client = clients[name] else { return ["runner_error": "unknown client"] }
        let delay = Double(Arguments.integer(op, "free_after_ms")) / 1000
        let handle = SendableHandle(pointer: client)
        let native = self.native
        let done = DispatchSemaphore(value: 0)
        let freer = Thread {
            Thread.sleep(forTimeInterval: delay)
            native.clientFree(handle.pointer)
            done.signal()
        }
        freer.start()
        let reply = poll(client, op)
        done.wait()
        freed.insert(name)
        return reply
    }

    private func setEventHandler(_ op: [String: JSONValue]) -> JSONObject {
        let name = op["client"]?.stringValue
        let client = resolve(name)
        let enabled = op["enabled"]?.boolValue ?? true
        let status: Int32
        if enabled, let name, let inbox = inboxes[name] {
            let token = Unmanaged.passRetained(inbox).toOpaque()
            status = native.clientSetEventHandler(client, Handlers.onEvent, token, Handlers.onFree)
            if status != 0 { Unmanaged<Inbox>.fromOpaque(token).release() }
        } else {
            status = native.clientSetEventHandler(client, enabled ? Handlers.ignore : nil, nil, nil)
        }
        return statusReply(status)
    }

    private func drainEvents(_ op: [String: JSONValue]) -> JSONObject {
        guard let name = op["client"]?.stringValue, let inbox = inboxes[name] else { return ["runner_error": "unknown client"] }
        let drained = inbox.drain(count: Arguments.integer(op, "count"), timeoutMs: Arguments.integer(op, "timeout_ms"))
        var reply: JSONObject = ["events": .array(drained.events), "user_data_frees": .number(JSONNumber(drained.frees))]
        if let problem = drained.problem { reply["runner_error"] = .string(problem) }
        return reply
    }

    private func clientFree(_ op: [String: JSONValue]) -> JSONObject {
        let name = op["client"]?.stringValue
        native.clientFree(resolve(name))
        guard let name, let inbox = inboxes[name] else { return [:] }
        freed.insert(name)
        return ["user_data_frees": .number(JSONNumber(inbox.releases))]
    }

    /// Client references: a name from client_new, "null", "made_up" (a small integer as a
    /// pointer), "made_up_heap" (a real address that is not a client), or "freed:NAME".
    private func resolve(_ reference: String?) -> OpaquePointer? {
        guard let reference, reference != "null" else { return nil }
        if reference == "made_up" { return OpaquePointer(bitPattern: 0x1234) }
        if reference == "made_up_heap" { return OpaquePointer(madeUpHeap) }
        return clients[reference.hasPrefix("freed:") ? String(reference.dropFirst(6)) : reference]
    }

    /// status, status_name, the out string as JSON under `key` (or `unparseable`), and `raw`.
    private func result(_ status: Int32, _ out: UnsafeMutablePointer<CChar>?, key: String) -> JSONObject {
        var reply = statusReply(status)
        guard let bytes = native.take(out) else {
            reply[key] = .null
            return reply
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let parsed = try? JSONValue(parsingBytes: bytes) { reply[key] = parsed } else { reply["unparseable"] = .string(text) }
        reply["raw"] = .string(text)
        return reply
    }

    private func statusReply(_ status: Int32) -> JSONObject {
        ["status": .number(JSONNumber(Int(status))), "status_name": .string(native.name(of: status))]
    }
}

/// A client pointer handed to the thread that frees it.
struct SendableHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
