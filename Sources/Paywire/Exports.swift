import PaywireCore
import PaywireModel
import PaywireWire
import CPosix

// The C ABI of include/paywire.h. Each export is a firewall: it checks every pointer, turns
// every failure into a status plus an envelope, and never traps. Semantics live in PaywireCore.
// The functions of the call path are `@_optimize(speed)`: the library is built -Osize, and
// every call passes through them (make bench (a): 19.4x -> 17.0x for 20 KB, with the others).

public typealias EventFunction = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void
public typealias FreeFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

/// Longest method name accepted; longer ones cannot be a method.
private let maxMethodLength = 128

/// Writes `response`'s envelope to `out` (when given) and returns its status; NOMEM when the
/// copy cannot be allocated (then `*out` is NULL).
@_optimize(speed) private func deliver(_ response: CallResponse, to out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    guard let out else { return response.status.rawValue }
    guard let copy = CStrings.copyOut(response.envelope) else {
        out.pointee = nil
        return Status.noMemory.rawValue
    }
    out.pointee = copy
    return response.status.rawValue
}

private func failure(_ code: ErrorCode, _ message: String, field: String? = nil) -> CallResponse {
    var details = JSONObject()
    if let field { details.set("field", .string(field)) }
    return .failure(WireError(code, message, details: details))
}

/// `paywire_client_new`'s success: null, or `{"warnings": [...]}` naming what the config holds
/// that this library ignored (keys it does not know), so a host sees it without reading events.
private func created(_ config: ClientConfig) -> CallResponse {
    guard !config.unknownKeys.isEmpty else { return .success { writer in writer.null() } }
    return .success { writer in
        writer.object { writer in
            writer.key("warnings")
            writer.array { writer in
                for key in config.unknownKeys {
                    writer.object { writer in
                        writer.member("code", "unknown_config_key")
                        writer.member("message", "config key '\(key)' is not one this Paywire knows: it is ignored")
                        writer.member("field", key)
                    }
                }
            }
        }
    }
}

/// Reads a method name: present, UTF-8, of sane length. A known name is found from its bytes
/// (no String made, nothing hashed but the bytes); any other is checked and made a String, and
/// the call answers `unknown_method` for it.
@_optimize(speed) private func readMethod(_ pointer: UnsafePointer<CChar>?) -> Result<MethodName, WireError> {
    guard let pointer else {
        return .failure(WireError(.wrongParam, "method is NULL", details: JSONObject([("field", .string("method"))])))
    }
    let length = strnlen(pointer, maxMethodLength + 1)
    guard length > 0, length <= maxMethodLength else {
        // Checked before UTF-8 on purpose: a 10 MB "method" is refused without reading it all.
        return .failure(WireError(.unknownMethod, "method name is empty or longer than \(maxMethodLength) bytes"))
    }
    let known = pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
        MethodName.resolve(UnsafeBufferPointer(start: $0, count: length))
    }
    if let known { return .success(known) }
    guard let name = String(validatingCString: pointer) else {
        return .failure(WireError(.invalidUTF8, "method is not valid UTF-8", details: JSONObject([("field", .string("method"))])))
    }
    return .success(MethodName(name))
}

/// Reads params: NULL means `{}`; invalid UTF-8 is refused.
@_optimize(speed) private func readParams(_ pointer: UnsafePointer<CChar>?) -> Result<[UInt8]?, WireError> {
    switch CStrings.read(pointer) {
    case .absent: return .success(nil)
    case .invalidUTF8:
        return .failure(WireError(.invalidUTF8, "params_json is not valid UTF-8", details: JSONObject([("field", .string("params_json"))])))
    case .bytes(let bytes): return .success(bytes)
    }
}

@_cdecl("paywire_abi_version")
public func paywire_abi_version() -> UInt32 { PaywireVersion.abi }

@_cdecl("paywire_version")
public func paywire_version() -> UnsafePointer<CChar> { CStrings.literal(PaywireVersion.libraryLiteral) }

@_cdecl("paywire_status_name")
public func paywire_status_name(_ status: Int32) -> UnsafePointer<CChar> {
    CStrings.literal(Status(rawValue: status)?.literalName ?? "UNKNOWN")
}

@_cdecl("paywire_string_free")
public func paywire_string_free(_ string: UnsafeMutablePointer<CChar>?) {
    free(string)
}

@_cdecl("paywire_client_new")
public func paywire_client_new(
    _ configJSON: UnsafePointer<CChar>?,
    _ outClient: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    outClient?.pointee = nil
    guard let outClient else {
        return deliver(failure(.wrongParam, "out_client is NULL", field: "out_client"), to: outJSON)
    }
    let configBytes: [UInt8]?
    switch CStrings.read(configJSON) {
    case .absent: configBytes = nil
    case .invalidUTF8: return deliver(failure(.invalidUTF8, "config_json is not valid UTF-8", field: "config_json"), to: outJSON)
    case .bytes(let bytes): configBytes = bytes
    }
    // The handle's token first: the bridge the client is built with knows it from the start.
    guard let token = HandleTable.reserve() else {
        return deliver(failure(.internal, "could not register the client: too many clients are open"), to: outJSON)
    }
    do throws(WireError) {
        let config = try ClientConfig.parse(configBytes)
        let events = EventHub(limit: config.eventQueueLimit, answerLimit: config.asyncCallLimit)
        let bridge = ClientBridge(events: events, token: token)
        var transport: BoundaryTransport?
        if let settings = config.transport, settings.carrier == .builtIn {
            transport = try BuiltInTransport.make(settings) { [bridge] token, outcome in
                bridge.httpFinished(token: token, outcome: outcome)
            }
        }
        // libcrypto is loaded only for a client that asks for verification.
        let signatures: SignatureVerifier? = config.verification.mode == .disabled ? nil : try Libcrypto.load()
        let client = try Client(config: config, sink: events, scheduler: bridge, clock: SystemClock(), random: SystemRandom(),
                                completions: bridge, httpTransport: transport,
                                files: LocalFileSystem(), openOutbox: { (directory: String) throws(WireError) -> OutboxStore in try SQLiteOutboxStore(directory: directory) },
                                signatures: signatures)
        HandleTable.fill(token, with: ClientHandle(client: client, events: events, bridge: bridge, transport: transport))
        outClient.pointee = token
        return deliver(created(config), to: outJSON)
    } catch {
        HandleTable.release(token)
        return deliver(.failure(error), to: outJSON)
    }
}

@_cdecl("paywire_client_free")
public func paywire_client_free(_ client: UnsafeMutableRawPointer?) {
    HandleTable.remove(client)?.close()
}

@_cdecl("paywire_client_call")
@_optimize(speed) public func paywire_client_call(
    _ client: UnsafeMutableRawPointer?,
    _ method: UnsafePointer<CChar>?,
    _ paramsJSON: UnsafePointer<CChar>?,
    _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard outJSON != nil else { return Status.invalidArgument.rawValue }
    guard let handle = HandleTable.lookup(client) else {
        return deliver(failure(.invalidHandle, "client is NULL, freed, or not a Paywire client"), to: outJSON)
    }
    let methodName: MethodName, params: [UInt8]?
    switch (readMethod(method), readParams(paramsJSON)) {
    case (.failure(let error), _), (_, .failure(let error)): return deliver(.failure(error), to: outJSON)
    case (.success(let name), .success(let bytes)): (methodName, params) = (name, bytes)
    }
    return deliver(handle.call(method: methodName, params: params), to: outJSON)
}

@_cdecl("paywire_client_call_async")
public func paywire_client_call_async(
    _ client: UnsafeMutableRawPointer?,
    _ method: UnsafePointer<CChar>?,
    _ paramsJSON: UnsafePointer<CChar>?,
    _ outCallId: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    outCallId?.pointee = 0
    guard let outCallId else { return Status.invalidArgument.rawValue }
    guard let handle = HandleTable.lookup(client) else { return Status.invalidHandle.rawValue }
    switch (readMethod(method), readParams(paramsJSON)) {
    case (.failure(let error), _), (_, .failure(let error)): return error.code.status.rawValue
    case (.success(let name), .success(let bytes)):
        guard let callId = handle.callAsync(method: name, params: bytes) else { return Status.busy.rawValue }
        outCallId.pointee = callId
        return Status.ok.rawValue
    }
}

@_cdecl("paywire_client_set_event_handler")
public func paywire_client_set_event_handler(
    _ client: UnsafeMutableRawPointer?,
    _ function: EventFunction?,
    _ userData: UnsafeMutableRawPointer?,
    _ userDataFree: FreeFunction?
) -> Int32 {
    guard let handle = HandleTable.lookup(client) else { return Status.invalidHandle.rawValue }
    guard !handle.events.isDeliveryThread else { return Status.invalidArgument.rawValue }
    handle.events.setHandler(function.map { EventHandler(function: $0, userData: userData, free: userDataFree) })
    // The new handler hears the current profile first (after whatever was already queued).
    if function != nil { handle.eventHandlerAttached() }
    return Status.ok.rawValue
}

@_cdecl("paywire_client_poll")
public func paywire_client_poll(
    _ client: UnsafeMutableRawPointer?,
    _ timeoutMs: Int32,
    _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard outJSON != nil else { return Status.invalidArgument.rawValue }
    guard let handle = HandleTable.lookup(client) else {
        return deliver(failure(.invalidHandle, "client is NULL, freed, or not a Paywire client"), to: outJSON)
    }
    guard timeoutMs >= 0 else {
        return deliver(failure(.wrongParam, "timeout_ms must be >= 0", field: "timeout_ms"), to: outJSON)
    }
    switch handle.events.poll(timeoutMs: timeoutMs) {
    case .event(let string):
        // Made when the event was queued: handed over, not copied.
        outJSON?.pointee = string
        return Status.ok.rawValue
    case .timedOut: return deliver(failure(.timeout, "no event within \(timeoutMs) ms"), to: outJSON)
    case .closed: return deliver(failure(.closed, "the client was freed"), to: outJSON)
    case .handlerSet:
        return deliver(failure(.wrongParam, "an event handler is set: events go to it, not to poll", field: "client"), to: outJSON)
    }
}
