import HTTPTypes
import Logging
import PaywireWire
import Testing
@testable import paywire_server

/// Each operation of the API is one value (`APIOperation`): its door, its signing and its profile
/// door are said once, and a guarded request's body is parsed once, at the edge, into the value
/// the profile door and the operation both read.
@Suite struct APIOperationTests {
    private static let operations = APIRoutes.operations
    private static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func everyOperationIsListedOnceByMethodAndPath() {
        let names = Self.operations.map(\.name)
        #expect(Set(names).count == names.count)
    }

    @Test func everyAppOperationButThePlacementsStandsBehindTheProfileDoor() {
        for operation in Self.operations {
            let servesPlacements = operation.path.hasPrefix("/v1/placements/") || operation.path.hasPrefix("/v1/onboardings/")
            #expect(operation.behindProfileDoor == (operation.door == .app && !servesPlacements), "\(operation.name)")
        }
    }

    @Test func theOperationsThatCarryAccessAreSigned() {
        let signed = Set(Self.operations.filter(\.signed).map(\.name))
        #expect(signed == ["GET /v1/profiles/{profile_id}", "POST /v1/purchases", "POST /v1/restores",
                           "POST /v1/profiles/{profile_id}/identity", "POST /v1/redemptions"])
    }

    @Test func theDocumentsTheDeviceKeepsAreSignedAsTheirKind() {
        let documents = Dictionary(uniqueKeysWithValues: Self.operations.compactMap { operation in operation.document.map { (operation.name, $0) } })
        #expect(documents == ["GET /v1/placements/{placement_id}": "placements", "GET /v1/onboardings/{placement_id}": "onboardings"])
    }

    /// The bytes given are not the JSON given: an operation that parsed the bytes again would
    /// name no profile (or other ones) and fail here.
    @Test func theProfileDoorReadsTheBodyTheEdgeParsedNotTheBytesAgain() throws {
        let parsed = try JSONValue(parsing: Array(#"{"profile_id":"body-p","records":[{"profile_id":"record-p"}]}"#.utf8))
        let unparsable = Array("these bytes are not what the edge parsed".utf8)
        for operation in Self.operations where operation.behindProfileDoor {
            let pathProfile = operation.parameterNames.contains("profile_id") ? "path-p" : nil
            let input = RouteInput(body: unparsable, parsed: parsed, parameters: pathProfile.map { ["profile_id": $0] } ?? [:], logger: Self.logger)
            let expected = (pathProfile.map { [$0] } ?? []) + ["body-p", "record-p"]
            #expect(operation.read(input).profiles == expected, "\(operation.name)")
        }
    }

    @Test func aBodyThatIsNoJSONNamesOnlyThePathsProfile() {
        for operation in Self.operations where operation.behindProfileDoor {
            let pathProfile = operation.parameterNames.contains("profile_id") ? "path-p" : nil
            let input = RouteInput(body: Array(#"{"profile_id":"body-p"}"#.utf8), parsed: nil,
                                   parameters: pathProfile.map { ["profile_id": $0] } ?? [:], logger: Self.logger)
            #expect(operation.read(input).profiles == (pathProfile.map { [$0] } ?? []), "\(operation.name)")
        }
    }

    @Test func theListingIsMethodPathAndDoorOfEachOperation() {
        let lines = APIRoutes.listing.split(separator: "\n").map(String.init)
        #expect(lines.count == Self.operations.count)
        #expect(lines.contains("POST /v1/events app"))
        #expect(lines.contains("GET /v1/experiments/{placement_id}/results operator:results:read"))
    }
}
