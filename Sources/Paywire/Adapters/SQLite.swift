import CSQLite
import PaywireCore
import PaywireModel
import PaywireWire
import CPosix

/// One SQLite connection, used under the owning client's lock only. Errors become
/// `storage_failed` naming the file.
final class SQLiteConnection {
    let path: String
    /// Nil once closed: every later use fails with `storage_failed`.
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating, readable by the owner only) the database at `path`.
    init(path: String) throws(WireError) {
        self.path = path
        // SQLite would create the file with the process umask; create it 0600 first.
        let fd = pw_open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LocalFiles.storageFailure("cannot open", path) }
        CPosix.close(fd)
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened else {
            if let opened { sqlite3_close_v2(opened) }
            throw LocalFiles.storageFailure("cannot open", path, reason: String(cString: sqlite3_errstr(status)),
                                            extra: [("sqlite_code", .number(JSONNumber(Int(status))))])
        }
        // Before any statement: even the first (setting WAL mode) may meet a lock held by a
        // previous owner's connection that is still closing.
        sqlite3_busy_timeout(opened, SQLiteConnection.busyMilliseconds)
        handle = opened
    }

    /// How long a statement waits for a lock held by another connection before failing.
    static let busyMilliseconds: Int32 = 1000

    deinit { close() }

    /// Finalizes the statements and closes the database now (not whenever the last reference
    /// goes), so the next owner of the directory finds it closed. Idempotent.
    func close() {
        guard let open = handle else { return }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        sqlite3_close_v2(open)
        handle = nil
    }

    private func openHandle() throws(WireError) -> OpaquePointer {
        guard let handle else {
            throw WireError(.storageFailed, "'\(path)' is closed: the client is being freed",
                            details: JSONObject([("path", .string(path))]))
        }
        return handle
    }

    /// Runs statements with no parameters and no rows (schema, pragmas, transactions).
    func execute(_ sql: String) throws(WireError) {
        let status = sqlite3_exec(try openHandle(), sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw failure(status, doing: sql) }
    }

    /// Runs one statement with `bindings`, calling `row` for each result row.
    func run(_ sql: String, _ bindings: [SQLiteValue] = [], row: ((SQLiteRow) -> Void)? = nil) throws(WireError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in bindings.enumerated() {
            let status = value.bind(to: statement, at: Int32(index + 1))
            guard status == SQLITE_OK else { throw failure(status, doing: sql) }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure(status, doing: sql) }
            row?(SQLiteRow(statement: statement))
        }
    }

    /// Runs `body` in one transaction: all of it is kept, or none.
    func transaction(_ body: () throws(WireError) -> Void) throws(WireError) {
        try execute("BEGIN IMMEDIATE")
        do throws(WireError) {
            try body()
            try execute("COMMIT")
        } catch {
            if let handle { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    private func prepared(_ sql: String) throws(WireError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(try openHandle(), sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, doing: sql) }
        statements[sql] = statement
        return statement
    }

    func failure(_ status: Int32, doing what: String) -> WireError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
        return WireError(.storageFailed, "'\(path)': \(message)",
                         details: JSONObject([("path", .string(path)), ("sqlite_code", .number(JSONNumber(Int(status)))),
                                              ("underlying_error", .string(String(cString: sqlite3_errstr(status))))]))
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int)
    case text(String)
    case blob([UInt8])
    case null

    fileprivate func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .integer(let value):
            return sqlite3_bind_int64(statement, index, sqlite3_int64(value))
        case .text(let text):
            guard !text.isEmpty else { return pw_sqlite_bind_text(statement, index, "", 0) }
            var text = text
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    pw_sqlite_bind_text(statement, index, chars.baseAddress, Int32(chars.count))
                }
            }
        case .blob(let bytes):
            return bytes.withUnsafeBytes { buffer in pw_sqlite_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count)) }
        case .null:
            return sqlite3_bind_null(statement, index)
        }
    }
}

/// The current row of a statement.
struct SQLiteRow {
    let statement: OpaquePointer

    func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }

    /// The column's text, or nil when it is NULL.
    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : text(column)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
