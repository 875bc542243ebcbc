import HTTPTypes
import Hummingbird
import NIOCore
import PaywireWire
import ServerDomain

/// What an operation answers: a status, its JSON body as bytes (written once, by the model's
/// writers or the server's own), and headers. The edge turns it into Hummingbird's response.
struct Answer: Sendable {
    let status: HTTPResponse.Status
    let body: [UInt8]?
    var headers: HTTPFields = [:]

    static func json(_ status: HTTPResponse.Status = .ok, _ body: [UInt8], headers: HTTPFields = [:]) -> Answer {
        Answer(status: status, body: body, headers: headers)
    }

    /// A JSON value, written once.
    static func json(_ status: HTTPResponse.Status = .ok, _ value: JSONValue) -> Answer {
        json(status, JSONWriter.encode(value))
    }

    /// The API's error shape, `{"error": {"code", "message", ...}}`.
    static func error(_ status: HTTPResponse.Status, _ code: String, _ message: String,
                      extra: [(String, JSONValue)] = [], headers: HTTPFields = [:]) -> Answer {
        Answer(status: status, body: ErrorBody.bytes(code: code, message: message, extra: extra), headers: headers)
    }

    /// `400 invalid_request`: the request breaks the contract, as `message` says.
    static func invalid(_ message: String) -> Answer { error(.badRequest, "invalid_request", message) }

    /// `400 invalid_request` for a record the model's rules refused, naming the member.
    static func invalid(_ problem: WireError) -> Answer { invalid(problem.message) }

    /// An answer with no body (`304`, a `404` the spec gives no body).
    static func empty(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Answer {
        Answer(status: status, body: nil, headers: headers)
    }

    /// Adds the headers that sign this answer exactly as it leaves: its status, its ETag (a 304
    /// carries one too) and its body's bytes, for the request's `nonce`, method and raw path.
    mutating func sign(with signer: ResponseSigner, nonce: String, trusted: String?, signedAt: Int, method: String,
                       path: String) throws {
        let fields = try signer.headers(nonce: nonce, trusted: trusted, signedAt: signedAt, status: Int(status.code), method: method,
                                        path: path, etag: headers[.eTag] ?? "", body: body ?? [])
        for (name, value) in fields {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
    }

    /// Adds the headers that sign this answer as a document of `kind` and `id`: its ETag and
    /// its body's bytes as they leave (`DocumentSignature`). Only a 200 carries a document.
    mutating func signDocument(with signer: ResponseSigner, trusted: String?, kind: String, id: String) throws {
        guard status == .ok, let body else { return }
        let fields = try signer.documentHeaders(trusted: trusted, kind: kind, id: id, revision: headers[.eTag] ?? "", body: body)
        for (name, value) in fields {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
    }

    var response: Response {
        var fields = headers
        guard let body else { return Response(status: status, headers: fields) }
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
