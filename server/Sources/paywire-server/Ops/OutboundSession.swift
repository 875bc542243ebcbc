import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// A session for the server's own calls out (the Play Developer API, Stripe's): ephemeral, so
    /// nothing of a call is cached or kept on disk, and every request, and the whole transfer,
    /// within `milliseconds`: a slow service never holds a request of ours longer.
    static func outbound(deadlineMillis milliseconds: Int) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Double(milliseconds) / 1000
        configuration.timeoutIntervalForResource = Double(milliseconds) / 1000
        return URLSession(configuration: configuration)
    }
}
