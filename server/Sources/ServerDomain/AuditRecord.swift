/// What an operator did that touched a customer: which key (by its id, never the key), which
/// route, about whom (the route's parameters: a profile, a checkout), how it was answered, and
/// when. Reads of customers' data, changes made for them, store notifications sent by tooling
/// and the development routes are kept; aggregates (results, the experiments page) are not a
/// customer's data. Signing in and out of the dashboard is kept too.
package struct AuditRecord: Sendable, Equatable {
    package let at: Int
    package let keyId: String
    /// `METHOD /route/{template}`, or `sign in`, `sign out`.
    package let action: String
    /// `name=value` of the route's parameters, `&`-joined; empty when it names no one.
    package let subject: String
    package let status: Int

    package init(at: Int, keyId: String, action: String, subject: String, status: Int) {
        self.at = at
        self.keyId = keyId
        self.action = action
        self.subject = subject
        self.status = status
    }

    /// Whether requests through a door needing `scope` are kept (a door taking no operator
    /// scope keeps none).
    package static func isAudited(_ scope: OperatorScope?) -> Bool {
        guard let scope else { return false }
        return audited.contains(scope)
    }

    private static let audited: Set<OperatorScope> = [.customersRead, .customersWrite, .notificationsWrite, .development]

    /// The subject of a request: its path parameters, then the query's `profile_id`, in order.
    package static func subject(_ parameters: [(String, String)], profileQuery: String?) -> String {
        let named = parameters + (profileQuery.map { [("profile_id", $0)] } ?? [])
        return named.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
}
