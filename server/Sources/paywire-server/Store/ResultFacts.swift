/// What experiment results count, as read from the store: each exposure (test, variation,
/// profile; repeats allowed) and each verified purchase attributed to the placement, with what
/// store notifications said of it.
struct ResultFacts: Sendable {
    let exposures: [(abTestName: String, variationId: String, profileId: String)]
    let sales: [Sale]
}
