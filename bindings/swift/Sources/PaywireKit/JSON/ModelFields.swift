/// Reads the members of one JSON object for a generated model: required members must be there,
/// optional ones may be absent, and whatever the schema does not name is kept for writing back.
struct ModelReader {
    private let members: [String: JSONValue]

    /// The object's members; throws when `json` is not an object.
    init(_ json: JSONValue, _ model: String) throws {
        guard case .object(let members) = json else {
            throw JSONShapeError(path: [], message: "\(model): expected an object, got \(json.kindName)")
        }
        self.members = members
    }

    /// A member that must be present (it may still be null when `T` is an Optional).
    func required<T: JSONRepresentable>(_ key: String) throws -> T {
        guard let member = members[key] else { throw JSONShapeError(path: [key], message: "a required member is missing") }
        return try read(key, member)
    }

    /// A member that may be absent; null reads as absent, as the schema allows neither.
    func optional<T: JSONRepresentable>(_ key: String) throws -> T? {
        guard let member = members[key], member != .null else { return nil }
        return try read(key, member) as T
    }

    /// A member that may be absent and may be null, the two told apart: nil when absent,
    /// `.some(nil)` when null.
    func present<T: JSONRepresentable>(_ key: String) throws -> T?? {
        guard let member = members[key] else { return nil }
        return .some(try read(key, member) as T?)
    }

    /// A free-form member that may be absent and may be null: nil when absent, `.null` when null.
    func raw(_ key: String) -> JSONValue? { members[key] }

    /// The members not in `known`: a newer library's, kept so the value writes back whole.
    func unknown(_ known: Set<String>) -> [String: JSONValue] {
        members.filter { !known.contains($0.key) }
    }

    private func read<T: JSONRepresentable>(_ key: String, _ member: JSONValue) throws -> T {
        do {
            return try T(json: member)
        } catch let error as JSONShapeError {
            throw error.inside(key)
        }
    }
}

/// Writes the members of one JSON object for a generated model.
struct ModelWriter {
    private(set) var members: [String: JSONValue] = [:]

    /// A member always written (null when an Optional is nil).
    mutating func required<T: JSONRepresentable>(_ key: String, _ value: T) {
        members[key] = value.jsonValue
    }

    /// A member written when set; with `T` itself an Optional, `.some(nil)` writes null.
    mutating func optional<T: JSONRepresentable>(_ key: String, _ value: T?) {
        if let value { members[key] = value.jsonValue }
    }

    /// The members a newer library wrote; a member the model names wins over one of the same name.
    mutating func unknown(_ extra: [String: JSONValue]) {
        members.merge(extra) { known, _ in known }
    }

    var json: JSONValue { .object(members) }
}
