import NIOCore
import NIOHTTP1
import Synchronization

/// The connections this replica serves, counted under one lock across every event loop
/// (`ConnectionCounts` under `ConnectionLimits`).
final class ConnectionGate: Sendable {
    let limits: ConnectionLimits
    private let counts = Mutex(ConnectionCounts())

    init(limits: ConnectionLimits) { self.limits = limits }

    func admit(_ address: String) -> ConnectionCounts.Admission {
        counts.withLock { $0.admit(address, within: limits) }
    }

    func release(_ address: String) {
        counts.withLock { $0.release(address) }
    }
}

/// First in a connection's pipeline: admits the connection through the gate, or sheds it,
/// answering `503` with `Retry-After` in bytes of its own (no request has been read). A shed
/// connection's write side is shut after the answer and what the client sends is dropped for
/// up to a second (a close with unread bytes would reset the connection before the client read
/// the answer); the server's accept ceiling bounds how many wait so at once.
final class ConnectionAdmission: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let gate: ConnectionGate
    /// The address counted in, once admitted; nil while shed.
    private var admitted: String?

    init(gate: ConnectionGate) { self.gate = gate }

    func channelActive(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        switch gate.admit(address) {
        case .admitted:
            admitted = address
            context.fireChannelActive()
        case .shed(let why):
            ServerMetrics.connection("shed")
            let body = ErrorBody.bytes(code: "overloaded", message: "\(why): retry in 1 s")
            let head = "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: \(body.count)\r\n"
                + "retry-after: 1\r\nconnection: close\r\n\r\n"
            var answer = context.channel.allocator.buffer(capacity: head.utf8.count + body.count)
            answer.writeString(head)
            answer.writeBytes(body)
            context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { [channel = context.channel] _ in
                channel.close(mode: .output, promise: nil)
                channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard admitted != nil else { return }  // a shed connection's request is not read
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let admitted { gate.release(admitted) }
        admitted = nil
        context.fireChannelInactive()
    }
}

/// Holds a connection's requests to their deadlines (`RequestDeadlines`), after NIO's parser
/// and the head checks: a head overdue is answered `408` and the connection closed; a body
/// overdue closes the connection (its handler has the request already and fails with it).
/// `BytesArrival`, before the parser, tells it when a request's first bytes came.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var deadlines: RequestDeadlines
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// Once a request is overdue, nothing more is read.
    private var expired = false

    init(headMillis: Int, bodyMillis: Int) {
        deadlines = RequestDeadlines(headMillis: headMillis, bodyMillis: bodyMillis)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    /// Called by `BytesArrival` on the same event loop.
    func bytesArrived() { act(deadlines.bytesArrived(now: Self.now())) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !expired else { return }
        switch unwrapInboundIn(data) {
        case .head: act(deadlines.headParsed(now: Self.now()))
        case .end: act(deadlines.requestEnded())
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { act(deadlines.responseEnded(now: Self.now())) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    private func act(_ action: RequestDeadlines.Action?) {
        guard let action, let context else { return }
        timer?.cancel()
        timer = nil
        guard case .arm(let at) = action else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(at) * 1_000_000)) { loopBound.value.fire() }
    }

    private func fire() {
        guard let context, let overdue = deadlines.overdue(now: Self.now()) else { return }
        expired = true
        ServerMetrics.connection(overdue == .head ? "head_timeout" : "body_timeout")
        switch overdue {
        case .head:
            HeadGuard.answerAndClose(context, version: .http1_1, .requestTimeout, code: "request_timeout",
                                     "the request head took longer than \(deadlines.headMillis) ms (--request-head-timeout-ms)")
        case .body:
            context.close(promise: nil)
        }
    }

    /// Milliseconds on NIO's monotonic clock.
    private static func now() -> Int { Int(NIODeadline.now().uptimeNanoseconds / 1_000_000) }
}

/// Before NIO's parser: tells `RequestDeadlineHandler` that bytes came.
final class BytesArrival: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadlines: RequestDeadlineHandler

    init(_ deadlines: RequestDeadlineHandler) { self.deadlines = deadlines }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadlines.bytesArrived()
        context.fireChannelRead(data)
    }
}
