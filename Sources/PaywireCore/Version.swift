import PaywireModel
import PaywireWire

/// Version numbers shared by the header, the library and the bindings.
///
/// The file `VERSION` at the top of the source tree is the one source of the library version;
/// `make lib` fails when this file, `include/paywire.h` or the Python package disagree with it.
public enum PaywireVersion {
    /// The library version as a literal: `paywire_version()` hands out its bytes as they are.
    public static let libraryLiteral: StaticString = "0.2.0"
    /// The library version (`PAYWIRE_VERSION`).
    public static let library = libraryLiteral.description
    /// The C ABI version (`PAYWIRE_ABI_VERSION`), also the SONAME major.
    public static let abi: UInt32 = 1
    /// The wire protocol version (`PAYWIRE_WIRE_VERSION`), the schema's `$id` version.
    public static let wire = 1
}
