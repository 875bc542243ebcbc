import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

@Suite struct PlacementCacheTests {
    private func fetched(_ id: String, at time: Int) -> RemoteSource.Fetched {
        RemoteSource.Fetched(key: PlacementKey(kind: .paywall, id: id), etag: "\"t\"", responseCreatedAt: 5, fetchedAt: time,
                             placement: Array(#"{"placement_audience_version_id":"v","variations":[]}"#.utf8))
    }

    @Test func storedEntriesAreReadBackByAFreshCache() throws {
        let storage = MemoryStorage()
        try PlacementCache(storage: storage).store(fetched("p", at: 10))
        let entry = PlacementCache(storage: storage).entry(PlacementKey(kind: .paywall, id: "p"))
        #expect(entry?.etag == "\"t\"")
        #expect(entry?.fetchedAt == 10)
        #expect(entry?.responseCreatedAt == 5)
    }

    @Test(arguments: ["", "{", "[]", #"{"placement_id":"other","response_created_at":1,"fetched_at":1,"placement":{}}"#,
                      #"{"placement_id":"p","response_created_at":"x","fetched_at":1,"placement":{}}"#])
    func corruptedOrForeignEntriesCountAsMissing(_ record: String) throws {
        let storage = MemoryStorage()
        let writer = PlacementCache(storage: storage)
        try writer.store(fetched("p", at: 1))
        // Overwrite the record the cache wrote with damaged bytes.
        let key = "placement-cache-" + MD5.hexDigest("p")
        try storage.write(key, Array(record.utf8))
        let reader = PlacementCache(storage: storage)
        #expect(reader.entry(PlacementKey(kind: .paywall, id: "p")) == nil)
        try reader.store(fetched("p", at: 2))
        #expect(PlacementCache(storage: storage).entry(PlacementKey(kind: .paywall, id: "p"))?.fetchedAt == 2)
    }

    @Test func theOldestFetchIsDroppedPastTheBound() throws {
        let storage = MemoryStorage()
        let cache = PlacementCache(storage: storage)
        for index in 0...PlacementCache.maxEntries { try cache.store(fetched("p\(index)", at: 1000 + index)) }
        #expect(PlacementCache(storage: storage).entry(PlacementKey(kind: .paywall, id: "p0")) == nil)
        #expect(PlacementCache(storage: storage).entry(PlacementKey(kind: .paywall, id: "p\(PlacementCache.maxEntries)")) != nil)
    }

    @Test func placementIdsAreEscapedInURLs() {
        #expect("https://api.test/v1/placements/" + Backend.pathSegment("a b/é") == "https://api.test/v1/placements/a%20b%2F%C3%A9")
    }

    @Test func paywallAndOnboardingPlacementsOfOneIdAreCachedApart() throws {
        let storage = MemoryStorage()
        let onboarding = RemoteSource.Fetched(key: PlacementKey(kind: .onboarding, id: "p"), etag: nil, responseCreatedAt: 7, fetchedAt: 1,
                                              placement: Array(#"{"variations":[]}"#.utf8))
        try PlacementCache(storage: storage).store(fetched("p", at: 10))
        try PlacementCache(storage: storage).store(onboarding)
        let reader = PlacementCache(storage: storage)
        #expect(reader.entry(PlacementKey(kind: .paywall, id: "p"))?.responseCreatedAt == 5)
        #expect(reader.entry(PlacementKey(kind: .onboarding, id: "p"))?.responseCreatedAt == 7)
    }
}
