import NIOCore
import NIOHTTP1

/// What the server decides from a request head alone, before anything reads a body: in the
/// channel pipeline between NIO's HTTP/1.1 decoder and Hummingbird, on the heads NIO parsed.
/// - A head NIO cannot parse is answered `400` (`431` when it is over the head limit), in the
///   API's JSON error shape, where a bare parser would close the connection or answer empty.
/// - A head whose request target, header names or values hold a byte outside printable ASCII is
///   answered `400` (RFC 9110 §5.5 lets a recipient refuse them), not passed on half-decoded;
///   so is a target holding `%00`.
/// - A `Content-Length` over the body limit is answered `413` without reading the body;
///   `Transfer-Encoding` bodies are refused (`411`): every body has a length to check first.
/// - `Expect: 100-continue` is answered `100 Continue` for a body the server will read.
/// A refusal closes the connection: the answer is written, the write side shut, and what the
/// client still sends is read and dropped for up to a second, so that the close does not reset
/// the connection before the client has read the answer.
final class HeadGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let maxBodyBytes: Int
    /// Once a request is refused, everything else the connection brings is dropped.
    private var refusing = false

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        let part = unwrapInboundIn(data)
        guard case .head(let head) = part else { return context.fireChannelRead(data) }
        if let problem = Self.nonASCII(head) {
            return refuse(context, version: head.version, .badRequest, code: "bad_request", problem)
        }
        if head.headers.contains(name: "transfer-encoding") {
            return refuse(context, version: head.version, .lengthRequired, code: "length_required",
                          "Transfer-Encoding bodies are not taken here: send Content-Length")
        }
        let length = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        if length > maxBodyBytes {
            return refuse(context, version: head.version, .payloadTooLarge, code: "payload_too_large",
                          "the body is \(length) bytes; this server takes at most \(maxBodyBytes) (--max-body-bytes)")
        }
        if length > 0, head.headers.first(name: "expect")?.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        guard !refusing else { return }
        if case .headerOverflow = parseError {
            refuse(context, version: .http1_1, .requestHeaderFieldsTooLarge, code: "bad_request", "the request head is larger than 64 KiB")
        } else {
            refuse(context, version: .http1_1, .badRequest, code: "bad_request", "not an HTTP/1.1 request: \(parseError)")
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client finished sending after a refusal: nothing is left to drain.
        if refusing, case ChannelEvent.inputClosed = event { return context.close(promise: nil) }
        context.fireUserInboundEventTriggered(event)
    }

    private func refuse(_ context: ChannelHandlerContext, version: HTTPVersion, _ status: HTTPResponseStatus, code: String, _ message: String) {
        refusing = true
        Self.answerAndClose(context, version: version, status, code: code, message)
    }

    /// Writes an answer in the API's JSON error shape from a handler that sits where
    /// `HTTPServerResponsePart`s are written, then closes the connection (see the type's doc).
    static func answerAndClose(_ context: ChannelHandlerContext, version: HTTPVersion, _ status: HTTPResponseStatus, code: String,
                               _ message: String) {
        func wrap(_ part: HTTPServerResponsePart) -> NIOAny { NIOAny(part) }
        let body = ErrorBody.bytes(code: code, message: message)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(body.count))
        headers.add(name: "connection", value: "close")
        context.write(wrap(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        context.write(wrap(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrap(.end(nil)), promise: written)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in
            let context = loopBound.value
            context.close(mode: .output, promise: nil)
            context.eventLoop.scheduleTask(in: .seconds(1)) { loopBound.value.close(promise: nil) }
        }
    }

    /// Where a head holds a byte outside printable ASCII (NIO decodes header bytes as UTF-8,
    /// so a Latin-1 byte arrives as U+FFFD, itself outside ASCII); nil when it holds none.
    static func nonASCII(_ head: HTTPRequestHead) -> String? {
        func clean(_ text: String) -> Bool { text.utf8.allSatisfy { $0 == 9 || (32...126).contains($0) } }
        guard clean(head.uri) else { return "the request target holds a byte that is not printable ASCII" }
        // No store keeps U+0000 (PostgreSQL's text cannot), so no path names it either.
        guard !head.uri.contains("%00") else { return "the request target holds %00" }
        for (name, value) in head.headers where !clean(name) || !clean(value) {
            return "header '\(String(name.unicodeScalars.filter(\.isASCII)))' holds a byte that is not ASCII: header names and values must be ASCII"
        }
        return nil
    }
}
