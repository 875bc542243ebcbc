// Written by hand (the generated files are in Generated/): the type `typeOverrides` in
// server/openapi-generator-config.yaml puts in place of the spec's `Record`.

/// A record of an events batch as the generated decoder sees it: only that it is there. Its
/// members are read and checked from the request's exact bytes by the server (the core's JSON
/// reader), which keeps numbers as written and members the spec does not name, and names every
/// malformed record in a refusal.
package struct UncheckedRecord: Codable, Hashable, Sendable {
    package init() {}

    /// Reads nothing: whatever the value is, the server's own check decides.
    package init(from decoder: any Decoder) throws {}

    /// A record is only ever received; the server never writes one through this type.
    package func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath,
                                                     debugDescription: "UncheckedRecord is read from requests only"))
    }
}
