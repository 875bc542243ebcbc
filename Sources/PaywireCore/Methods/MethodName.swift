import PaywireModel
import PaywireWire

/// A method name as the host gave it, resolved to its entry once. The boundary resolves a known
/// name from the C string's bytes (`resolve(_:)`), so the common call makes no String and hashes
/// nothing: a String and a dictionary lookup cost about a third of a trivial call (issue 46).
public struct MethodName: Sendable {
    let entry: MethodEntry?
    /// The name the host gave when it is not a known method's (a known one's is the entry's).
    private let unknown: String?

    /// The name, for the `call_result` event and error messages.
    public var name: String { entry?.name ?? unknown ?? "" }

    /// Resolves `name` (an unknown one keeps a nil entry: the call answers `unknown_method`).
    public init(_ name: String) {
        var text = name
        entry = text.withUTF8 { MethodTable.index.find($0) }
        unknown = entry == nil ? name : nil
    }

    /// The known method whose name is exactly `bytes`, or nil (then the caller checks the bytes
    /// and makes a String of them). A known name is ASCII, so bytes that match are valid UTF-8.
    public static func resolve(_ bytes: UnsafeBufferPointer<UInt8>) -> MethodName? {
        guard let entry = MethodTable.index.find(bytes) else { return nil }
        return MethodName(entry: entry)
    }

    private init(entry: MethodEntry) {
        self.entry = entry
        unknown = nil
    }
}

/// The method table by name's bytes: an open-addressed table of FNV-1a hashes, built once.
/// Looking a name up hashes its bytes and compares them with one or two names.
struct MethodIndex: Sendable {
    private let entries: [MethodEntry]
    private let names: [[UInt8]]
    /// Entry index + 1 per slot; 0 is empty. A power of two, at least twice the entries.
    private let slots: [Int]

    init(_ entries: [MethodEntry]) {
        var size = 16
        while size < entries.count * 2 { size *= 2 }
        var slots = [Int](repeating: 0, count: size)
        var kept: [MethodEntry] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            var slot = MethodIndex.hash(name) & (size - 1)
            var replaced = false
            while slots[slot] != 0 {
                // A later entry of the same name replaces the earlier (as a dictionary would).
                if Array(kept[slots[slot] - 1].name.utf8) == name {
                    kept[slots[slot] - 1] = entry
                    replaced = true
                    break
                }
                slot = (slot + 1) & (size - 1)
            }
            if !replaced {
                kept.append(entry)
                slots[slot] = kept.count
            }
        }
        self.entries = kept
        self.names = kept.map { Array($0.name.utf8) }
        self.slots = slots
    }

    @_optimize(speed) func find(_ name: UnsafeBufferPointer<UInt8>) -> MethodEntry? {
        var slot = MethodIndex.hash(name) & (slots.count - 1)
        while true {
            let found = slots[slot]
            if found == 0 { return nil }
            if names[found - 1].withUnsafeBufferPointer({ MethodIndex.same($0, name) }) { return entries[found - 1] }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// Byte equality eight bytes at a time (a generic `elementsEqual` went byte by byte through
    /// iterators: a fifth of a trivial call).
    @_optimize(speed) private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        let left = UnsafeRawBufferPointer(a), right = UnsafeRawBufferPointer(b)
        var offset = 0
        while offset + 8 <= left.count {
            guard left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < left.count {
            guard left[offset] == right[offset] else { return false }
            offset += 1
        }
        return true
    }

    @_optimize(speed) private static func hash<Bytes: Sequence>(_ bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash)
    }
}
