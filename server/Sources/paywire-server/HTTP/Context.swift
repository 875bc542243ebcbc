import Hummingbird
import NIOCore

/// A request's context: Hummingbird's core storage and the connection, which the fault
/// switches close without an answer.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    /// The operator who came through the route's door (an operator door only).
    var viewer: Viewer?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The client's address (the connection's peer; behind a proxy, the proxy's).
    var clientAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }
}

/// Thrown to end a request with its connection closed and no answer at all (a fault switch): a
/// client then sees what it sees when a peer vanishes.
struct CloseWithoutResponse: Error {}
