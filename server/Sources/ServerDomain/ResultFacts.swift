/// What experiment results count, as read from the store: each profile's exposures of the
/// placement by cell, each verified purchase attributed to the placement, and for each holdout
/// cell every verified purchase of the profiles it exposed, with what store notifications said
/// of them.
package struct ResultFacts: Sendable {
    package let exposures: [ExposureFact]
    package let sales: [Sale]
    /// Per holdout cell asked for: the purchases of its profiles exposed without a debug
    /// override, wherever they were made (a holdout shows no paywall to attribute them to).
    package let holdoutSales: [ExperimentCell: [Sale]]

    package init(exposures: [ExposureFact], sales: [Sale], holdoutSales: [ExperimentCell: [Sale]]) {
        self.exposures = exposures
        self.sales = sales
        self.holdoutSales = holdoutSales
    }
}

/// A profile's exposures of one cell, forced or not (one fact for each).
package struct ExposureFact: Sendable {
    package let abTestName: String
    package let variationId: String
    package let profileId: String
    /// A debug override forced these exposures: results leave them out.
    package let forced: Bool
    /// The first of them, by the record's created_at (ms).
    package let firstShownAt: Int
    /// None of them named the placement's revision (a paywall from a vendor file).
    package let unversioned: Bool
    /// One of them was the server's web paywall's: the profile counts on the web.
    package var onWeb = false

    package init(abTestName: String, variationId: String, profileId: String, forced: Bool, firstShownAt: Int, unversioned: Bool,
                 onWeb: Bool = false) {
        self.abTestName = abTestName
        self.variationId = variationId
        self.profileId = profileId
        self.forced = forced
        self.firstShownAt = firstShownAt
        self.unversioned = unversioned
        self.onWeb = onWeb
    }
}

/// One variation of one A/B test.
package struct ExperimentCell: Hashable, Sendable {
    package let abTestName: String
    package let variationId: String

    package init(abTestName: String, variationId: String) {
        self.abTestName = abTestName
        self.variationId = variationId
    }
}
