/// Version numbers shared by the header, the library and the bindings.
public enum PaywireVersion {
    /// The library version (`PAYWIRE_VERSION`).
    public static let library = "0.1.0"
    /// The C ABI version (`PAYWIRE_ABI_VERSION`), also the SONAME major.
    public static let abi: UInt32 = 1
    /// The wire protocol version (`PAYWIRE_WIRE_VERSION`), the schema's `$id` version.
    public static let wire = 1
}
