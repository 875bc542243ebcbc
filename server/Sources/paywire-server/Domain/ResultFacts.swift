/// What experiment results count, as read from the store: each profile's exposures of the
/// placement by cell, each verified purchase attributed to the placement, and for each holdout
/// cell every verified purchase of the profiles it exposed, with what store notifications said
/// of them.
struct ResultFacts: Sendable {
    let exposures: [ExposureFact]
    let sales: [Sale]
    /// Per holdout cell asked for: the purchases of its profiles exposed without a debug
    /// override, wherever they were made (a holdout shows no paywall to attribute them to).
    let holdoutSales: [ExperimentCell: [Sale]]
}

/// A profile's exposures of one cell, forced or not (one fact for each).
struct ExposureFact: Sendable {
    let abTestName: String
    let variationId: String
    let profileId: String
    /// A debug override forced these exposures: results leave them out.
    let forced: Bool
    /// The first of them, by the record's created_at (ms).
    let firstShownAt: Int
    /// None of them named the placement's revision (a paywall from a vendor file).
    let unversioned: Bool
    /// One of them was the server's web paywall's: the profile counts on the web.
    var onWeb = false
}

/// One variation of one A/B test.
struct ExperimentCell: Hashable, Sendable {
    let abTestName: String
    let variationId: String
}
