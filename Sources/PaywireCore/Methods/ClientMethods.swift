import PaywireModel
import PaywireWire

extension MethodTable {
    /// The client itself: versions, logging, host answers.
    static let clientMethods: [MethodEntry] = [
        .now("get_sdk_version") { client, _ throws(WireError) in client.sdkVersion() },
        .now("get_log_level") { client, _ throws(WireError) in client.log.levelAnswer },
        .now("set_log_level") { client, params throws(WireError) in
            guard let level = try params.optionalEnum("log_level", LogLevel.self) else {
                throw WireError.wrongParam("log_level", "is required")
            }
            client.log.setLevel(level)
            return done
        },
        .now("host_respond") { client, params throws(WireError) in
            let requestId = try params.identifier("request_id")
            let answer = try HostAnswer(params)
            switch try client.broker.answer(requestId, answer) {
            case .delivered:
                return .success { writer in writer.object { writer in writer.member("accepted", true) } }
            case .late:
                return .success { writer in writer.object { writer in writer.member("accepted", false) } }
            }
        },
    ]
}
