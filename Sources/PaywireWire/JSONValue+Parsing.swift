/// JSON text read into a value, as the device reads it: the entry point the backend uses too.
extension JSONValue {
    /// Parses JSON text as the device does: numbers keep their text, objects their key order;
    /// at most `limits`' depth and size.
    public init(parsing bytes: [UInt8], limits: JSONLimits = .standard) throws(JSONParseError) {
        self = try JSONParser.parse(bytes, limits: limits)
    }
}
