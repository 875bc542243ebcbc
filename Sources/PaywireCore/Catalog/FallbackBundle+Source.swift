import PaywireModel
import PaywireWire

extension FallbackBundle {
    /// The bundle a config or `set_fallback` names: inline, or a UTF-8 file read through `files`.
    /// With `documents` (`response_verification`) it is judged against the signature given
    /// beside it, over the file's exact bytes: the verdict its paywalls carry, or (enforced) a
    /// refusal. An inline bundle carries none.
    static func load(_ source: ClientConfig.FallbackSource, files: FileSystem?, documents: DocumentVerifier?,
                     log: Log) throws(WireError) -> (bundle: FallbackBundle, verification: Verification?) {
        switch source {
        case .inline(let bytes):
            let bundle = try load(bytes)
            return (bundle, try documents?.judgeBundle(bytes, signature: nil, log: log))
        case .path(let path, let signature):
            let bytes = try files.required(for: "fallback.path").read(path: path)
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw WireError(.invalidUTF8, "fallback file '\(path)' is not valid UTF-8", details: JSONObject([("file", .string(path))]))
            }
            let verification = try documents?.judgeBundle(bytes, signature: signature, log: log)
            return (try load(bytes, origin: path), verification)
        }
    }
}
