/// What an operator key may do: each operator route names the scope it needs.
package enum OperatorScope: String, CaseIterable, Sendable {
    /// Experiment results (aggregates of every customer's exposures and purchases).
    case resultsRead = "results:read"
    /// A customer's own data: App Store consumption requests, a profile's page.
    case customersRead = "customers:read"
    /// A change made for a customer: a web purchase's redemption link.
    case customersWrite = "customers:write"
    /// The dashboard's pages.
    case dashboard
    /// Store notifications sent by tooling rather than a store's own signature (the test store's,
    /// and Play's where no Pub/Sub token is checked).
    case notificationsWrite = "notifications:write"
    /// The development routes (`/_dev/*`, `--dev` only).
    case development
    /// The audit records: what operators did to customers' data (`/dashboard/audit`).
    case auditRead = "audit:read"
}
