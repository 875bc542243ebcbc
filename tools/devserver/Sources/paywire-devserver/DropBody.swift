import FlyingFox
import FlyingSocks

/// A response body that promises bytes and fails before sending any: the server closes the
/// connection mid-response, which is what a client sees when a connection drops.
struct DropBody: AsyncBufferedSequence {
    typealias Element = UInt8

    struct Dropped: Error {}

    struct AsyncIterator: AsyncBufferedIteratorProtocol {
        mutating func next() async throws -> UInt8? { throw Dropped() }
        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? { throw Dropped() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }

    /// A body of this kind, announcing `count` bytes it will never send.
    static func response(announcing count: Int) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"],
                     body: HTTPBodySequence(from: DropBody(), count: count))
    }
}
