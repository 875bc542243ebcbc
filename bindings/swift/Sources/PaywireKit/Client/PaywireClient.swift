import Foundation

/// A Paywire client: one user's paywalls, products, purchases and profile, over libpaywire's C
/// ABI (include/paywire.h).
///
/// Every wire method is an `async throws` method (Methods.g.swift; the seeds' own shapes in
/// PaywireClient+Seeds.swift); each is sent with `paywire_client_call_async` and completed by
/// its `call_result`, taken from the client's ordered event stream by one thread this client
/// owns. Errors are ``PaywireError``. Events come through ``events``; the latest profile also
/// through ``delegate``; the screens the app draws are driven through
/// ``paywallController(for:products:delegate:)`` and ``onboardingController(for:delegate:)``.
///
/// `Sendable`: use one client from any task or thread. Delegates (this one's and the
/// controllers') are called on the main actor. ``close()`` (or the last reference going away)
/// frees the library's client; calls still waiting then throw `closed`.
public final class PaywireClient: Sendable {
    let core: ClientCore

    /// Creates a client from the configuration's JSON text (docs: client config).
    ///
    /// - Parameter store: answers the core's `store.*` host requests when the configuration's
    ///   `store.type` is `host` (StoreKit in an app); with `test` the library plays its own
    ///   test store and with `none` there is no billing.
    /// - Throws: ``PaywireError`` for a configuration the library refuses (`details.field` names
    ///   the member), ``PaywireLibraryError`` when libpaywire cannot be found or was built for
    ///   another ABI, or speaks a wire schema of another MAJOR or an older MINOR (`VERSION_MISMATCH`).
    public init(configurationJSON: String, store: (any PaywireStore)? = nil) throws {
        let native = try NativeLibrary.get()
        guard !configurationJSON.utf8.contains(0) else {
            throw PaywireError.binding(.wrongParam, "the configuration's text holds a NUL character")
        }
        var pointer: OpaquePointer?
        var out: UnsafeMutablePointer<CChar>?
        let status = configurationJSON.withCString { native.clientNew($0, &pointer, &out) }
        let envelope = native.take(out).flatMap { try? JSONValue(parsingBytes: $0) }
        guard status == NativeStatus.ok, let pointer else {
            throw PaywireError.from(envelope: envelope, status: status, name: native.name(of: status))
        }
        if let created = envelope?["success"] { PaywireWarnings.report(created) }
        let handle = NativeHandle(pointer: pointer)
        do {
            try Self.checkSchema(native, handle)
        } catch {
            native.clientFree(pointer)
            throw error
        }
        core = ClientCore(native: native, handle: handle, store: store)
        core.start()
    }

    /// Creates a client from a typed configuration (``PaywireConfiguration``).
    public convenience init(configuration: PaywireConfiguration, store: (any PaywireStore)? = nil) throws {
        try self.init(configurationJSON: configuration.jsonValue.jsonText, store: store)
    }

    deinit { core.close() }

    /// Frees the library's client. Calls still waiting throw `closed`; ``events`` streams finish;
    /// no delegate hears anything the library sends afterwards. Idempotent.
    public func close() { core.close() }

    /// Every event of this client from now on, typed, in `seq` order (a new stream per access;
    /// several may be read at once). The `call_result` of this binding's own calls is not among
    /// them. A `host_request` the binding answers (the store's, a controller's) is shown too:
    /// answer only those it does not (`http`, or all of them without a ``PaywireStore``).
    public var events: AsyncStream<PaywireEvent> { core.subscribers.stream() }

    /// Hears the latest profile on the main actor; held weakly. Setting it delivers the current
    /// profile at once (a delegate set late still starts from the access state).
    public var delegate: (any PaywireDelegate)? {
        get { core.delegate }
        set { core.delegate = newValue }
    }

    /// The latest profile the library sent (its first event is one), nil before it arrived.
    public var latestProfile: Profile? { core.latestProfile }

    /// The library this process loaded: its path, version and ABI.
    public static func library() throws -> PaywireLibrary {
        let native = try NativeLibrary.get()
        return PaywireLibrary(path: native.path, version: native.version().map { String(cString: $0) } ?? "",
                              abiVersion: Int(native.abiVersion()))
    }

    // MARK: calls

    /// Sends `method` and decodes its result as `Result`.
    func invoke<Params: JSONRepresentable, Result: JSONRepresentable>(_ method: String, _ params: Params) async throws -> Result {
        let value = try await core.submit(method, params.jsonValue).value()
        do {
            return try Result(json: value)
        } catch let error as JSONShapeError {
            throw PaywireError.binding(.decodingFailed, "the result of \(method) does not have the schema's shape: \(error)",
                                       details: ["method": .string(method)])
        }
    }

    /// Sends `method`, whose result is null.
    func perform<Params: JSONRepresentable>(_ method: String, _ params: Params) async throws {
        _ = try await core.submit(method, params.jsonValue).value()
    }

    private static func checkSchema(_ native: NativeLibrary, _ handle: NativeHandle) throws {
        var out: UnsafeMutablePointer<CChar>?
        let status = "get_sdk_version".withCString { native.clientCall(handle.pointer, $0, nil, &out) }
        let envelope = native.take(out).flatMap { try? JSONValue(parsingBytes: $0) }
        guard status == NativeStatus.ok, let success = envelope?["success"] else {
            throw PaywireError.from(envelope: envelope, status: status, name: native.name(of: status))
        }
        let version = try GetSdkVersionResult(json: success)
        if let refused = SchemaVersion.mismatch(library: version.schemaVersion, binding: PaywireSchema.version, path: native.path) {
            throw refused
        }
    }
}

/// The libpaywire a process loaded.
public struct PaywireLibrary: Sendable, Hashable {
    /// Where it was found (see the binding's README for the order it looks in).
    public let path: String
    /// `paywire_version()`, e.g. "0.2.0".
    public let version: String
    /// `paywire_abi_version()`.
    public let abiVersion: Int
}
