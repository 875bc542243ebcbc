import PaywireModel
import PaywireWire

/// The services every part of a client shares, built first from the config: logging, calls,
/// timers, host requests, the store, storage, the clock and the link to the backend.
struct Runtime {
    let log: Log
    let calls: Calls
    let timers: Timers
    let broker: HostRequestBroker
    /// Whether the host keeps up with its events; work is refused where it enters when not.
    let backpressure: Backpressure
    let store: StoreGateway
    let storage: Storage
    /// Nil when the client was built without one: `fallback.path` and `storage_dir` are refused.
    let files: FileSystem?
    let clock: Clock
    /// Identifiers' and jitter's random bits: the boundary's generator.
    let random: RandomSource
    /// The time access is judged by: the backend's, heard on every answer.
    let accessClock: AccessClock
    /// Nil with no transport configured: the bundle is the only source.
    let backend: Backend?
    /// With `response_verification` (informational or enforced): checks the operator's
    /// signature on placements, onboardings and the fallback bundle.
    let documents: DocumentVerifier?

    /// Builds them; throws when the store, the storage directory or the transport cannot be used.
    /// `clock` and `random` are the system's, from the boundary (`store.now` fixes the wall clock);
    /// `signatures` checks the backend's signatures when `response_verification` asks for it.
    init(config: ClientConfig, sink: EventSink, scheduler: TimerScheduler?, completions: CallCompletionSink?,
         httpTransport: HTTPTransport?, files: FileSystem?, clock system: Clock, random: RandomSource,
         signatures: SignatureVerifier?) throws(WireError) {
        log = Log(level: config.logLevel, sink: sink)
        calls = Calls(completions: completions)
        timers = Timers(scheduler: scheduler)
        backpressure = Backpressure(sink: sink, eventQueueLimit: config.eventQueueLimit)
        broker = HostRequestBroker(timeout: config.hostRequestTimeoutMilliseconds, sink: sink, backpressure: backpressure,
                                   timers: timers, log: log)
        let system = config.clockOffsetMilliseconds == 0 ? system : ShiftedClock(system, by: config.clockOffsetMilliseconds)
        let adapter = config.store.make(clock: system, random: random)
        clock = adapter.fixedNow.map { FixedClock(milliseconds: $0, elapsed: system) } ?? system
        self.random = random
        accessClock = AccessClock(clock: clock, timers: timers)
        self.files = files
        if let directory = config.storageDir {
            storage = try files.required(for: "storage_dir").openStorage(directory: directory)
        } else {
            storage = MemoryStorage()
        }
        store = StoreGateway(adapter: adapter, broker: broker, timers: timers)
        if let transport = try RemoteTransport(config.transport, builtIn: httpTransport) {
            var verifier: ResponseVerifier?
            var documents: DocumentVerifier?
            if config.verification.mode != .disabled {
                guard let signatures else {
                    throw WireError.wrongParam("response_verification.mode", "this client was built without a signature checker")
                }
                verifier = ResponseVerifier(config: config.verification, signatures: signatures, random: random, clock: clock)
                documents = DocumentVerifier(config: config.verification, signatures: signatures, clock: clock)
            }
            self.documents = documents
            backend = Backend(transport: transport, apiKey: config.apiKey, broker: broker, calls: calls, timers: timers,
                              accessClock: accessClock, credentials: ProfileCredentials(storage: storage, log: log),
                              verifier: verifier, log: log)
        } else {
            backend = nil
            documents = nil
        }
    }
}
