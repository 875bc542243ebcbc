import PaywireAPI
import PaywireModel

/// `GET /v1/experiments/{placement_id}/results`: every A/B test of the bundle's placement.
extension API {
    func getExperimentResults(_ input: Operations.GetExperimentResults.Input) async throws -> Operations.GetExperimentResults.Output {
        let placementId = input.path.placementId
        guard let experiments = setup.experiments[placementId] else {
            return .notFound(.init(body: .json(ErrorDocument("not_found", "the bundle has no placement '\(placementId)'"))))
        }
        return .ok(.init(body: .json(try await results(placementId, experiments).document)))
    }

    func results(_ placementId: String, _ experiments: [Experiment]) async throws -> PlacementResults {
        let holdouts = experiments.flatMap { experiment in
            experiment.variations.filter { experiment.holdoutVariationIds.contains($0.variationId) }
                .map { ExperimentCell(abTestName: experiment.abTestName, variationId: $0.variationId) }
        }
        let facts = try await setup.store.resultFacts(placementId: placementId, holdouts: holdouts)
        return Results.compute(placementId: placementId, experiments: experiments, facts: facts, now: ServerSetup.now())
    }
}
