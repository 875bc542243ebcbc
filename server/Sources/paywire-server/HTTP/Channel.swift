import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 child channel with the server's guards around NIO's parser: the same
/// pipeline as `HTTP1Channel` (NIO's decoder and encoder, the HTTP-types codec, Hummingbird's
/// connection state handler for idle timeouts and graceful shutdown), plus the connection's
/// admission (`ConnectionAdmission`), its requests' deadlines (`RequestDeadlineHandler`) and the
/// decisions a head alone can make (`HeadGuard`). Heads are limited to 64 KiB.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    static let maxHeadBytes = 64 * 1024

    let responder: HTTPChannelHandler.Responder
    let maxBodyBytes: Int
    let gate: ConnectionGate
    let idleTimeout: TimeAmount?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let deadlines = RequestDeadlineHandler(headMillis: gate.limits.headMillis, bodyMillis: gate.limits.bodyMillis)
            try channel.pipeline.syncOperations.addHandler(ConnectionAdmission(gate: gate))
            try channel.pipeline.syncOperations.addHandler(BytesArrival(deadlines))
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = Self.maxHeadBytes
            limits.maxHeaderListSize = Self.maxHeadBytes
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // requests are taken in turn by the async channel
                withErrorHandling: false,  // HeadGuard answers parse errors
                withOutboundHeaderValidation: false,  // HTTP types validate what is written
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits)
            try channel.pipeline.syncOperations.addHandler(HeadGuard(maxBodyBytes: maxBodyBytes))
            try channel.pipeline.syncOperations.addHandler(deadlines)
            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try channel.pipeline.syncOperations.addHandler(
                HTTPConnectionStateHandler(idleTimeout: idleTimeout.map { .nanoseconds($0.nanoseconds) }, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the server's guards (see `GuardedHTTP1Channel`).
    static func guardedHTTP1(maxBodyBytes: Int, gate: ConnectionGate, idleTimeout: TimeAmount? = .seconds(75)) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, maxBodyBytes: maxBodyBytes, gate: gate, idleTimeout: idleTimeout)
        }
    }
}
