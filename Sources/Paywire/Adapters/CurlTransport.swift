import CCurl
import PaywireCore
import PaywireModel
import PaywireWire

/// The built-in HTTP client (`transport {type: http}`), over libcurl's multi interface. libcurl
/// is loaded on demand (Sources/CCurl): `BuiltInTransport.make` loads it before making one.
///
/// One per client. Transfers run on a worker thread that exists only while there is work: the
/// first request starts a loop that drives every transfer and ends when none is left, so an
/// idle client holds no thread. `close()` aborts what is in flight and waits for the loop, so
/// no answer arrives after the client is freed. Only the loop touches the multi handle, except
/// `curl_multi_wakeup`, which libcurl makes safe from any thread.
final class CurlTransport: BoundaryTransport, @unchecked Sendable {
    /// Largest response body accepted; a bigger one fails the request rather than the process.
    static let maxBodyBytes = 64 << 20

    private struct Queue {
        var waiting: [(request: HTTPRequest, token: UInt64)] = []
        var loopRunning = false
        var closed = false
    }

    private let multi: UnsafeMutableRawPointer
    private let queue = Locked(Queue())
    private let loop = SerialWorker()
    private let connectTimeout: Int
    private let caFile: String?
    /// Where answers go: the boundary hands them to the client under its lock.
    private let deliver: @Sendable (UInt64, HTTPOutcome) -> Void

    /// Nil when libcurl is not loaded or has no memory for a multi handle.
    init?(connectTimeoutMilliseconds: Int, caFile: String?, deliver: @escaping @Sendable (UInt64, HTTPOutcome) -> Void) {
        guard let multi = pw_curl_multi_init() else { return nil }
        self.multi = multi
        connectTimeout = connectTimeoutMilliseconds
        self.caFile = caFile
        self.deliver = deliver
    }

    deinit {
        pw_curl_multi_cleanup(multi)
    }

    func send(_ request: HTTPRequest, token: UInt64) {
        let startLoop: Bool? = queue.withLock { queue in
            guard !queue.closed else { return nil }
            queue.waiting.append((request, token))
            if queue.loopRunning { return false }
            queue.loopRunning = true
            return true
        }
        switch startLoop {
        case true?: loop.async { [self] in run() }
        case false?: pw_curl_multi_wakeup(multi)
        case nil: break
        }
    }

    /// Aborts every transfer and waits until the loop has stopped; nothing is delivered after.
    /// Must not be called from a delivery (it would wait for itself).
    func close() {
        queue.withLock { $0.closed = true }
        pw_curl_multi_wakeup(multi)
        loop.sync {}
    }

    private func run() {
        var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            let (incoming, closed) = queue.withLock { queue in
                defer { queue.waiting.removeAll() }
                return (queue.waiting, queue.closed)
            }
            if closed {
                for (easy, transfer) in transfers {
                    pw_curl_multi_remove_handle(multi, easy)
                    transfer.release()
                }
                queue.withLock { $0.loopRunning = false }
                return
            }
            for (request, token) in incoming {
                switch CurlTransfer.make(request, token: token, connectTimeout: connectTimeout, caFile: caFile) {
                case .ready(let transfer):
                    if pw_curl_multi_add_handle(multi, transfer.easy) == CURLM_OK {
                        transfers[transfer.easy] = transfer
                    } else {
                        transfer.release()
                        deliver(token, .failed(code: "transport_failed", message: "libcurl refused the transfer"))
                    }
                case .refused(let outcome):
                    deliver(token, outcome)
                }
            }
            var running: Int32 = 0
            pw_curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = pw_curl_multi_info_read(multi, &left) {
                guard pw_curl_message_is_done(message) != 0, let easy = pw_curl_message_handle(message),
                      let transfer = transfers.removeValue(forKey: easy) else { continue }
                let result = pw_curl_message_result(message)
                pw_curl_multi_remove_handle(multi, easy)
                let outcome = transfer.outcome(result)
                let token = transfer.token
                transfer.release()
                deliver(token, outcome)
            }
            if transfers.isEmpty {
                let done = queue.withLock { queue in
                    if queue.waiting.isEmpty && !queue.closed {
                        queue.loopRunning = false
                        return true
                    }
                    return false
                }
                if done { return }
                continue
            }
            // Sleeps until a socket is ready, a timeout of libcurl's is due, or a wakeup.
            pw_curl_multi_poll(multi, 1000)
        }
    }
}

/// One request in flight: its easy handle and what has arrived so far.
private final class CurlTransfer {
    let token: UInt64
    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var body: [UInt8] = []
    private var headers: [(name: String, value: String)] = []
    private var tooLarge = false
    /// The retain the easy handle's callbacks hold on this object, dropped by `release()`.
    private var callbackRetain: Unmanaged<CurlTransfer>?

    private init(token: UInt64, easy: UnsafeMutableRawPointer) {
        self.token = token
        self.easy = easy
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
    }

    enum Made {
        case ready(CurlTransfer)
        /// Could not be set up; this is the request's outcome.
        case refused(HTTPOutcome)
    }

    static func make(_ request: HTTPRequest, token: UInt64, connectTimeout: Int, caFile: String?) -> Made {
        guard let easy = pw_curl_easy_init() else {
            return .refused(.failed(code: "transport_failed", message: "libcurl could not start a transfer"))
        }
        let transfer = CurlTransfer(token: token, easy: easy)
        let retained = Unmanaged.passRetained(transfer)
        transfer.callbackRetain = retained
        let context = retained.toOpaque()
        var ok = true
        func set(_ code: CURLcode) { ok = ok && code == CURLE_OK }
        set(pw_curl_set_string(easy, CURLOPT_URL, request.url))
        set(pw_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(pw_curl_set_long(easy, CURLOPT_NOSIGNAL, 1))
        set(pw_curl_set_long(easy, CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds))
        set(pw_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, connectTimeout))
        set(pw_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, ""))  // every encoding libcurl decodes
        set(pw_curl_set_string(easy, CURLOPT_USERAGENT, "paywire/\(PaywireVersion.library)"))
        set(pw_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer))
        set(pw_curl_set_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteBody))
        set(pw_curl_set_pointer(easy, CURLOPT_WRITEDATA, context))
        set(pw_curl_set_callback(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader))
        set(pw_curl_set_pointer(easy, CURLOPT_HEADERDATA, context))
        if let caFile { set(pw_curl_set_string(easy, CURLOPT_CAINFO, caFile)) }
        switch request.method {
        case "GET": break
        default: set(pw_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, request.method))
        }
        if let body = request.body {
            set(pw_curl_set_long(easy, CURLOPT_POSTFIELDSIZE, body.count))
            body.withUnsafeBufferPointer { buffer in
                set(pw_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress)))
            }
        }
        for (name, value) in request.headers {
            transfer.headerList = pw_curl_slist_append(transfer.headerList, "\(name): \(value)")
        }
        if let list = transfer.headerList { set(pw_curl_set_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))) }
        guard ok else {
            let message = String(cString: transfer.errorBuffer)
            transfer.release()
            return .refused(.failed(code: "bad_request", message: message.isEmpty ? "libcurl refused the request's options (url '\(request.url)')" : message))
        }
        return .ready(transfer)
    }

    /// Frees the easy handle and drops the callbacks' reference. Call once, after the handle
    /// left the multi.
    func release() {
        pw_curl_easy_cleanup(easy)
        pw_curl_slist_free_all(headerList)
        headerList = nil
        callbackRetain?.release()
        callbackRetain = nil
    }

    fileprivate func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= CurlTransport.maxBodyBytes else {
            tooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    fileprivate func appendHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        guard let line = String(validating: bytes, as: UTF8.self) else { return }
        if line.hasPrefix("HTTP/") {
            headers.removeAll()  // a new response (after a 100 Continue, say) starts its own headers
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingSpaces
        headers.append((name, value))
    }

    /// How the transfer ended, for the core.
    func outcome(_ result: CURLcode) -> HTTPOutcome {
        if result == CURLE_OK {
            var status = 0
            _ = pw_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
            return .response(HTTPResponse(status: status, headers: headers, body: body))
        }
        if result == CURLE_OPERATION_TIMEDOUT { return .timedOut }
        if tooLarge {
            return .failed(code: "response_too_large", message: "the response body exceeds \(CurlTransport.maxBodyBytes) bytes")
        }
        var message = String(cString: errorBuffer)
        if message.isEmpty { message = String(cString: pw_curl_easy_strerror(result)) }
        return .failed(code: CurlTransfer.codeName(result), message: message)
    }

    /// Short, stable names for what hosts and logs need to tell apart.
    private static func codeName(_ result: CURLcode) -> String {
        switch result {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return "resolve_failed"
        case CURLE_COULDNT_CONNECT: return "connect_failed"
        case CURLE_GOT_NOTHING: return "empty_reply"
        case CURLE_PARTIAL_FILE: return "truncated_response"
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR: return "connection_lost"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            return "tls_failed"
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return "bad_url"
        case CURLE_BAD_CONTENT_ENCODING: return "bad_content_encoding"
        default: return "transport_failed"
        }
    }
}

private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let user else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return 0 }
    return transfer.appendBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let user else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    transfer.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

private extension Substring {
    /// Without leading and trailing spaces, tabs and line ends.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
