/// A closed set of names on the wire, each case written as its `String` raw value.
///
/// A conforming enum is read back from its name by walking `allCases` and comparing each case's
/// `rawValue`, instead of through the `init(rawValue:)` Swift would synthesize. The synthesized
/// one compares against a table of `StaticString`s, and every entry of that table is a pointer
/// the dynamic loader relocates each time the library loads: one relocation per case, about 500
/// for the library's enums. `rawValue` builds each name in code, so the walk needs no table.
/// Both read the same names; both are linear in the number of cases.
public protocol WireEnum: CaseIterable, RawRepresentable where RawValue == String {}

extension WireEnum {
    /// The case whose wire name is `rawValue`, or nil: names are compared as Swift compares
    /// strings, exactly as the synthesized initializer compares them.
    public init?(rawValue: String) {
        for candidate in Self.allCases where candidate.rawValue == rawValue {
            self = candidate
            return
        }
        return nil
    }
}
