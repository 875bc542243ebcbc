import PaywireModel
import ServerDomain

/// `GET /v1/experiments/{placement_id}/results`: every A/B test of the bundle's placement.
extension API {
    func getExperimentResults(placementId: String) async throws -> Answer {
        guard let experiments = setup.experiments[placementId] else {
            return .error(.notFound, "not_found", "the bundle has no placement '\(placementId)'")
        }
        return .json(.ok, try await results(placementId, experiments).document)
    }

    func results(_ placementId: String, _ experiments: [Experiment]) async throws -> PlacementResults {
        let holdouts = experiments.flatMap { experiment in
            experiment.variations.filter { experiment.holdoutVariationIds.contains($0.variationId) }
                .map { ExperimentCell(abTestName: experiment.abTestName, variationId: $0.variationId) }
        }
        let facts = try await setup.store.resultFacts(placementId: placementId, holdouts: holdouts)
        return Results.compute(placementId: placementId, experiments: experiments, facts: facts, now: clock.nowMilliseconds())
    }
}
