import PaywireModel
import PaywireWire

/// The client's `log` events: the level in force, and the one writer of their shape.
final class Log {
    private(set) var level: LogLevel {
        didSet { levelAnswer = Log.answer(level) }
    }
    /// `get_log_level`'s envelope, encoded when the level is set rather than at every call:
    /// hosts poll it, and its answer is one of five constants.
    private(set) var levelAnswer: CallResponse
    private let sink: EventSink

    init(level: LogLevel, sink: EventSink) {
        self.level = level
        self.sink = sink
        levelAnswer = Log.answer(level)
    }

    func setLevel(_ level: LogLevel) { self.level = level }

    private static func answer(_ level: LogLevel) -> CallResponse { .success { writer in writer.string(level.rawValue) } }

    /// Emits `{"event":"log", level, message, details}` when `level` is in force.
    func callAsFunction(_ level: LogLevel, _ message: String, details: [(key: String, value: JSONValue)] = []) {
        guard level <= self.level else { return }
        sink.emit(Event("log", retention: .droppable) { writer in
            writer.member("level", level.rawValue)
            writer.member("message", message)
            writer.member("details", .object(JSONObject(details)))
        })
    }
}

extension WireError {
    /// The error as a log event's details: its `code`, then its own details.
    var logDetails: [(key: String, value: JSONValue)] {
        [("code", .string(code.rawValue))] + details.members.map { ($0.key, $0.value) }
    }
}
