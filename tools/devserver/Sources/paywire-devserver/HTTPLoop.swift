import FlyingFox
import FlyingSocks
import Foundation

/// Thrown by a handler to close the connection without sending any response (the
/// `drop_rate` and `lose_response_rate` faults): what a client sees when a peer vanishes.
struct CloseWithoutResponse: Error {}

/// The server's HTTP/1.1 connections, on FlyingSocks' sockets and FlyingFox's request and
/// response types, in place of FlyingFox's `HTTPServer`, for two things it cannot do:
/// - answer a request whose head is not ASCII: its decoder turns each head line into a String
///   with `String(bytes:encoding: .utf8)` (`collectStrings` under `HTTPDecoder.readHeaders`)
///   and, when that fails (a Latin-1 `If-None-Match`), closes the connection without a word.
///   Here every head byte is checked first and a bad one is answered `400`.
/// - close a connection without any response, after a request was handled or before: a
///   FlyingFox handler can only return a response or throw, and a throw becomes a `500`.
/// It also answers `413` from the head alone (`--max-body-bytes`) and honours
/// `Expect: 100-continue`, which libcurl sends before larger bodies.
struct HTTPLoop: Sendable {
    let handler: any HTTPHandler
    let maxBodyBytes: Int
    /// A head larger than this is refused (`431`).
    static let maxHeadBytes = 64 * 1024

    /// Accepts connections on `socket` (bound and listening) until the task is cancelled.
    func run(listening socket: Socket) async throws {
        let pool = HTTPServer.defaultPool()
        try await pool.prepare()
        let listener = try AsyncSocket(socket: socket, pool: pool)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await pool.run() }
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    for try await connection in listener.sockets {
                        connections.addTask { await self.serve(connection) }
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// One connection: requests in turn while both sides keep it alive.
    private func serve(_ socket: AsyncSocket) async {
        // Answers go out as soon as they are written (no Nagle delay behind a small write).
        try? socket.socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
        var reader = ConnectionReader(socket: socket)
        defer { try? socket.close() }
        do {
            while true {
                guard let headBytes = try await reader.readHead(limit: Self.maxHeadBytes) else {
                    if reader.overflowed { try await refuse(431, "the request head is larger than 64 KiB", on: socket) }
                    return
                }
                let head: RequestHead
                switch RequestHead.parse(headBytes) {
                case .failure(let problem):
                    try await refuse(400, problem.message, on: socket)
                    return
                case .success(let parsed): head = parsed
                }
                guard head.contentLength <= maxBodyBytes else {
                    try await refuse(413, "the body is \(head.contentLength) bytes; this server takes at most \(maxBodyBytes) (--max-body-bytes)", on: socket)
                    return
                }
                if head.expectsContinue && head.contentLength > 0 {
                    try await socket.write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                }
                let body = try await reader.read(count: head.contentLength)
                let request = HTTPRequest(method: HTTPMethod(head.method), version: HTTPVersion(head.version),
                                          target: HTTPRequest.Target(path: head.path, query: head.query),
                                          headers: head.headers, body: HTTPBodySequence(data: Data(body)))
                let response: HTTPResponse
                do {
                    response = try await handler.handleRequest(request)
                } catch is CloseWithoutResponse {
                    return
                } catch {
                    response = refusal(500, "the handler failed: \(error)")
                }
                try await write(response, to: socket, close: !head.keepAlive)
                guard head.keepAlive else { return }
            }
        } catch {
            // The peer went away, or a body failed on purpose (the `drop` fault): the
            // connection closes, which is the point.
        }
    }

    /// Writes a response; a body that fails part-way closes the connection (the caller's defer).
    private func write(_ response: HTTPResponse, to socket: AsyncSocket, close: Bool) async throws {
        var head = "HTTP/1.1 \(response.statusCode.code) \(response.statusCode.phrase)\r\n"
        var headers = response.headers
        let noBody = response.statusCode.code == 304 || response.statusCode.code == 204
        var sequence: HTTPBodySequence?
        if case .httpBody(let body) = response.payload, !noBody {
            sequence = body
            headers[.contentLength] = String(body.count ?? 0)
        }
        if close { headers[.connection] = "close" }
        for (name, value) in headers { head += "\(name.rawValue): \(value)\r\n" }
        head += "\r\n"
        guard let sequence else { return try await socket.write(Data(head.utf8)) }
        // Head and first chunk in one write: two small writes meet Nagle's algorithm and the
        // client's delayed ACK, which costs 40 ms a request.
        var chunks = sequence.makeAsyncIterator()
        var first = Data(head.utf8)
        do {
            if let chunk = try await chunks.next() { first.append(chunk) }
        } catch {
            try await socket.write(first)   // a body failing on purpose (`drop`): the head goes out, then the close
            throw error
        }
        try await socket.write(first)
        while let chunk = try await chunks.next() { try await socket.write(chunk) }
    }

    /// Answers a request it will not read and closes the connection: the write side first,
    /// then what the client still sends is read and dropped for up to a second, so the
    /// close does not reset the connection before the client has read the answer.
    private func refuse(_ status: Int, _ message: String, on socket: AsyncSocket) async throws {
        try await write(refusal(status, message), to: socket, close: true)
        _ = Glibc.shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + .seconds(1)
        var drained = 0
        while ContinuousClock.now < deadline && drained < 16 << 20 {
            do {
                drained += try socket.socket.read(atMost: 65536).count
            } catch SocketError.blocked {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                return
            }
        }
    }

    private func refusal(_ status: Int, _ message: String) -> HTTPResponse {
        Reply.error(status, code: status == 413 ? "payload_too_large" : status == 500 ? "internal" : "bad_request", message)
    }
}

/// Bytes of one connection, buffered: heads up to their blank line, bodies by length.
struct ConnectionReader {
    let socket: AsyncSocket
    private var buffer: [UInt8] = []
    private var scanned = 0
    /// Whether the last head was refused for its size.
    private(set) var overflowed = false

    init(socket: AsyncSocket) { self.socket = socket }

    /// The next head without its final CRLF CRLF; nil at a clean end of the connection or past
    /// `limit` (then `overflowed`).
    mutating func readHead(limit: Int) async throws -> [UInt8]? {
        while true {
            if let end = headEnd() {
                let head = Array(buffer[..<end])
                buffer.removeFirst(end + 4)
                scanned = 0
                return head
            }
            guard buffer.count <= limit else {
                overflowed = true
                return nil
            }
            do {
                buffer += try await socket.read(atMost: 65536)
            } catch SocketError.disconnected {
                return nil
            }
        }
    }

    /// Exactly `count` body bytes.
    mutating func read(count: Int) async throws -> [UInt8] {
        while buffer.count < count {
            buffer += try await socket.read(atMost: max(65536, count - buffer.count))
        }
        let body = Array(buffer[..<count])
        buffer.removeFirst(count)
        return body
    }

    private mutating func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = max(0, scanned - 3)
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        scanned = buffer.count
        return nil
    }
}
