import Foundation
import OpenAPIRuntime
import PaywireAPI
import PaywireWire

// The generated models by the names the server's code uses.
typealias ErrorDocument = Components.Schemas._Error

extension Date {
    /// Milliseconds since the epoch (the store's unit) as a date.
    init(milliseconds: Int) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The date in whole milliseconds since the epoch.
    var milliseconds: Int { Int((timeIntervalSince1970 * 1000).rounded()) }
}

/// Dates on the wire as the core writes and reads them, `YYYY-MM-DDTHH:MM:SS.sssZ`, to the
/// millisecond (ISO 8601 formatters round-trip doubles and can lose one).
struct WireDates: DateTranscoder {
    func encode(_ date: Date) throws -> String { ISODate.format(milliseconds: date.milliseconds) }

    func decode(_ text: String) throws -> Date {
        guard let milliseconds = ISODate.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "'\(text)' is not a date YYYY-MM-DDTHH:MM:SS[.sss]Z"))
        }
        return Date(milliseconds: milliseconds)
    }
}

/// How the generated server and the server's own encodings write JSON: compact, keys sorted (so
/// the same value gives the same bytes in every replica, which ETags rely on), wire dates.
enum WireJSON {
    static let configuration = Configuration(dateTranscoder: WireDates(), jsonEncodingOptions: [.sortedKeys])

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try WireDates().encode(date))
        }
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in try WireDates().decode(try decoder.singleValueContainer().decode(String.self)) }
        return decoder
    }
}

extension ErrorDocument {
    /// `{"error": {"code", "message"}}`.
    init(_ code: String, _ message: String) { self.init(error: .init(code: code, message: message)) }
}
