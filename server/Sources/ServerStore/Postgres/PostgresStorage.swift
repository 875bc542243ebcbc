import Foundation
import Logging
import PostgresNIO
import ServerDomain

/// The engine replicas share: PostgreSQL through postgres-nio's connection pool. Writes that
/// decide from what they read run SERIALIZABLE and are tried again when PostgreSQL reports a
/// conflict with a concurrent transaction (or a unique key another replica took first), so the
/// rules see the same world a single writer would. Batches of records are one statement.
package final class PostgresStorage: Storage {
    package let client: PostgresClient
    package let logger: Logger
    /// When a migration was applied.
    package let clock: any ServerClock
    /// The jitter between tries of a transaction refused for a conflict.
    package let random: any RandomSource
    /// Tries of a transaction PostgreSQL refused for a conflict, before the error stands.
    package static let attempts = 8

    /// A pool for `url` (`postgres://user:password@host:port/database?sslmode=disable|prefer|require`).
    package init(url: String, poolSize: Int, logger: Logger, clock: any ServerClock, random: any RandomSource) throws {
        var configuration = try Self.configuration(url)
        configuration.options.maximumConnections = poolSize
        self.logger = logger
        self.clock = clock
        self.random = random
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    package static func configuration(_ text: String) throws -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""), let host = url.host,
              let user = url.user, !user.isEmpty else {
            throw StorageProblem("--database must be postgres://user[:password]@host[:port]/database")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let tls: PostgresClient.Configuration.TLS
        switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        default: throw StorageProblem("--database sslmode must be disable, prefer or require")
        }
        return PostgresClient.Configuration(host: host, port: url.port ?? 5432, username: user.removingPercentEncoding ?? user,
                                            password: url.password?.removingPercentEncoding, database: database.isEmpty ? nil : database,
                                            tls: tls)
    }

    /// Applies the migrations this database lacks, one replica at a time (an advisory lock).
    package func migrate() async throws {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                try await connection.query("SELECT pg_advisory_xact_lock(7300300)", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(Migration.table) (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                    """), logger: logger)
                var applied = 0
                for try await version in try await connection.query(PostgresQuery(unsafeSQL: "SELECT COALESCE(MAX(version), 0) FROM \(Migration.table)"),
                                                                    logger: logger).decode(Int.self) {
                    applied = version
                }
                for migration in Migration.all where migration.version > applied {
                    // One statement at a time: the extended protocol takes no more (no DDL here holds a ';' of its own).
                    for statement in migration.postgres.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
                        try await connection.query(PostgresQuery(unsafeSQL: String(statement)), logger: logger)
                    }
                    try await connection.query(try Self.statement("INSERT INTO \(Migration.table) (version, name, applied_at) VALUES (?, ?, ?)",
                                                                  [.int(migration.version), .text(migration.name), .int(clock.nowMilliseconds())]),
                                               logger: logger)
                }
                try await connection.query("COMMIT", logger: logger)
            } catch {
                await rollback(connection)
                throw error
            }
        }
    }

    /// Runs `work` in one SERIALIZABLE transaction, again when PostgreSQL refuses it for a
    /// conflict with another transaction (40001, 40P01) or a unique key taken meanwhile (23505).
    package func serializable<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await client.withConnection { connection in
                    try await connection.query("BEGIN ISOLATION LEVEL SERIALIZABLE", logger: logger)
                    do {
                        let value = try await work(connection)
                        try await connection.query("COMMIT", logger: logger)
                        return value
                    } catch {
                        await self.rollback(connection)
                        throw error
                    }
                }
            } catch let error as PSQLError where attempt < Self.attempts && ["40001", "40P01", "23505"].contains(error.serverInfo?[.sqlState] ?? "") {
                attempt += 1
                try await Task.sleep(for: .milliseconds(random.int(in: 1...(5 << attempt))))
            }
        }
    }

    /// Ends a transaction that failed; a rollback that fails too is logged (the transaction's
    /// own error is the one thrown, and the pool drops a connection that broke).
    private func rollback(_ connection: PostgresConnection) async {
        do {
            try await connection.query("ROLLBACK", logger: logger)
        } catch {
            logger.warning("rollback failed", metadata: ["error": "\(StorageProblem.describe(error))"])
        }
    }

    /// Rows of one statement.
    package func rows(_ sql: String, _ values: [SQLValue] = [], on connection: PostgresConnection? = nil) async throws -> [PostgresRandomAccessRow] {
        let query = try Self.statement(sql, values)
        let sequence: PostgresRowSequence
        if let connection {
            sequence = try await connection.query(query, logger: logger)
        } else {
            sequence = try await client.query(query, logger: logger)
        }
        return try await sequence.collect().map { $0.makeRandomAccess() }
    }

    /// `sql` with its `?` placeholders numbered as PostgreSQL writes them, and their values bound.
    package static func statement(_ sql: String, _ values: [SQLValue]) throws -> PostgresQuery {
        var text = "", bindings = PostgresBindings(capacity: values.count), index = 0
        for character in sql {
            guard character == "?" else {
                text.append(character)
                continue
            }
            guard index < values.count else { throw StorageProblem("more placeholders than values in: \(sql.prefix(80))") }
            index += 1
            text += "$\(index)"
            switch values[index - 1] {
            case .text(let value): bindings.append(value)
            case .int(let value): bindings.append(value)
            case .bool(let value): bindings.append(value)
            }
        }
        guard index == values.count else { throw StorageProblem("more values than placeholders in: \(sql.prefix(80))") }
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }

    package func reset() async throws {
        _ = try await rows("TRUNCATE \(Migration.tables.joined(separator: ", ")) RESTART IDENTITY")
    }

    package func ping() async throws {
        _ = try await rows("SELECT 1")
    }
}

/// A value bound to a statement's placeholder.
package enum SQLValue: Sendable {
    case text(String?)
    case int(Int?)
    case bool(Bool?)
}

/// A statement the storage code built wrongly: a bug, reported rather than run.
package struct StorageProblem: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }

    /// An error for the log: PostgreSQL's code and message where it gave them (postgres-nio's
    /// own description says nothing, lest it leak; these never hold a bound value).
    package static func describe(_ error: any Error) -> String {
        if let transaction = error as? PostgresTransactionError {
            return describe(transaction.closureError ?? transaction.commitError ?? transaction.beginError ?? error)
        }
        guard let error = error as? PSQLError else { return "\(error)" }
        guard let info = error.serverInfo else { return "PostgreSQL: \(error.code)" }
        return "PostgreSQL \(info[.sqlState] ?? "?"): \(info[.message] ?? "")\(info[.detail].map { " (\($0))" } ?? "")"
    }
}
