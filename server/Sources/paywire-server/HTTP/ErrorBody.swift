import Hummingbird
import NIOCore
import PaywireWire

/// The API's error shape on every route, `{"error": {"code", "message", ...}}`, for answers
/// given outside an operation's typed output (the head checks, the key, 404 and 405, faults).
enum ErrorBody {
    static func bytes(code: String, message: String, extra: [(String, JSONValue)] = []) -> [UInt8] {
        JSONWriter.encode(.object([("error", .object([("code", .string(code)), ("message", .string(message))] + extra))]))
    }

    static func response(_ status: HTTPResponse.Status, code: String, _ message: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: bytes(code: code, message: message))))
    }
}
