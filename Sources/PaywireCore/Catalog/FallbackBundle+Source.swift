import PaywireModel
import PaywireWire

extension FallbackBundle {
    /// The bundle a config or `set_fallback` names: inline, or a UTF-8 file read through `files`.
    static func load(_ source: ClientConfig.FallbackSource, files: FileSystem?) throws(WireError) -> FallbackBundle {
        switch source {
        case .inline(let bytes):
            return try load(bytes)
        case .path(let path):
            let bytes = try files.required(for: "fallback.path").read(path: path)
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw WireError(.invalidUTF8, "fallback file '\(path)' is not valid UTF-8", details: JSONObject([("file", .string(path))]))
            }
            return try load(bytes, origin: path)
        }
    }
}
