import Foundation
import Logging
import PaywireWire
import ServerDomain

/// The server's logs: one JSON object a line on stderr (`--log-format json`, the default), or
/// swift-log's text lines. Nothing the server logs carries a secret: no API key, no
/// authorization header, no request body.
enum ServerLog {
    static func bootstrap(level: String, format: String, clock: any ServerClock) -> Logger {
        let level = Logger.Level(rawValue: level) ?? .info
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = format == "text" ? StreamLogHandler.standardError(label: label)
                : JSONLogHandler(label: label, clock: clock)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "paywire-server")
    }
}

/// A swift-log handler writing `{"ts", "level", "label", "msg", ...metadata}` lines to stderr.
struct JSONLogHandler: LogHandler {
    let label: String
    /// The lines' times.
    let clock: any ServerClock
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var members: [(String, JSONValue)] = [
            ("ts", .string(ISODate.format(milliseconds: clock.nowMilliseconds()))),
            ("level", .string(event.level.rawValue)), ("label", .string(label)), ("msg", .string(event.message.description)),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for key in merged.keys.sorted() {
            if let value = merged[key] { members.append((key, Self.json(value))) }
        }
        var line = JSONWriter.encode(.object(members))
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(Data(line))
    }

    private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .stringConvertible(let convertible): return .string(convertible.description)
        case .array(let items): return .array(items.map(json))
        case .dictionary(let members): return .object(members.keys.sorted().map { ($0, json(members[$0] ?? .string(""))) })
        }
    }
}
