import PaywireCore
import PaywireModel
import PaywireWire
import CPosix

/// Converting between borrowed C strings and Swift, refusing (never repairing) invalid UTF-8.
enum CStrings {
    enum Input {
        case absent
        case bytes([UInt8])
        case invalidUTF8
    }

    /// Copies a borrowed NUL-terminated string and checks it is UTF-8.
    @_optimize(speed) static func read(_ pointer: UnsafePointer<CChar>?) -> Input {
        guard let pointer else { return .absent }
        let length = strlen(pointer)
        let bytes = pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
        guard String(validating: bytes, as: UTF8.self) != nil else { return .invalidUTF8 }
        return .bytes(bytes)
    }

    /// A caller-owned NUL-terminated copy (released with `paywire_string_free`), nil when out of memory.
    @_optimize(speed) static func copyOut(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        guard let raw = malloc(bytes.count + 1) else { return nil }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memcpy(raw, base, bytes.count) }
        }
        raw.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        return raw.assumingMemoryBound(to: CChar.self)
    }

    /// A string literal as `const char *`: static storage, NUL-terminated, never freed.
    static func literal(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
