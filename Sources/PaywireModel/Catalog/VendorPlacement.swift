import PaywireWire

/// One placement of the vendor's fallback file (`VendorFallback`), made into the placement
/// Paywire's own bundle would hold: one audience (the file holds the audience a profile with no
/// segment gets), its variations, and the cross-placement test they run. Checked as strictly
/// as a bundle placement: a bad field is `invalid_fallback` naming its JSON path.
enum VendorPlacement {
    /// Makes variations of one kind from their objects and cross-placement groups.
    typealias VariationReader<V> = (_ fields: Fields, _ crossPlacementGroup: String?) throws(WireError) -> V

    /// The placement filed under `id` in the file's `data`: an object, or that object written
    /// as a JSON string.
    static func read<V: WeightedVariation>(id: String, _ value: JSONValue, variation: VariationReader<V>) throws(WireError) -> Placement<V> {
        let path = "data.\(id)"
        do throws(WireError) {
            let fields = try Fields(try unwrapText(value, path: path), path: path)
            let meta = try fields.object("meta").object("placement")
            let developerId = try meta.identifier("developer_id")
            guard developerId == id else {
                throw WireError.wrongParam(meta.fieldPath("developer_id"), "is '\(developerId)' but the placement is filed under '\(id)'")
            }
            let audienceName = try meta.string("audience_name")
            let revision = try meta.int("revision", in: 0...Int(Int32.max))
            let abTestName = try meta.string("ab_test_name")
            let audienceVersionId = try meta.identifier("placement_audience_version_id")
            // Read to check its type; Paywire records every onboarding's analytics (see the docs' table).
            _ = try meta.optionalBool("is_tracking_purchases")

            let items = try fields.objects("data")
            let cross = try CrossPlacementTest(items, path: fields.fieldPath("data"))
            let variations = try Audience<V>.variations(items, path: fields.fieldPath("data")) { index, item throws(WireError) in
                try variation(item, cross.group(at: index))
            }
            let audience = Audience(name: audienceName, rule: nil, revision: revision, abTestName: abTestName,
                                    placementAudienceVersionId: audienceVersionId, crossPlacementTestId: cross.testId,
                                    variations: variations)
            // The file holds one localization of each remote config, which the vendor serves
            // whatever locale is asked: its language answers before `en` when the request's does not.
            let fileLanguage = variations.lazy.compactMap { $0.remoteConfigs.first?.lang }.first
            return Placement(developerId: id, audiences: [audience], defaultLocale: fileLanguage)
        } catch {
            throw WireError(.invalidFallback, "the dashboard file's placement '\(id)' is invalid: \(error.message)", details: error.details)
        }
    }

    /// The placement object, parsed from its JSON text when the file holds it as a string.
    private static func unwrapText(_ value: JSONValue, path: String) throws(WireError) -> JSONValue {
        guard case .string(let text) = value else { return value }
        do {
            return try JSONParser.parse(Array(text.utf8), limits: JSONLimits(maxDepth: 128, maxBytes: .max))
        } catch {
            throw WireError.wrongParam(path, "the placement's JSON text does not parse: \(error.reason) at byte \(error.offset)")
        }
    }
}

/// The vendor's cross-placement test in Paywire's terms. A variation's
/// `cross_placement_info.placement_with_variation_map` names, for every placement of the test,
/// the variation a profile in its group gets there. The test is the set of placements the map
/// names; the group is the variation the map names in the first of them (sorted by id). Every
/// placement of the test derives the same test id and, for one map, the same group, so the
/// group a profile is given in one placement is kept in the others.
struct CrossPlacementTest {
    /// Nil when no variation takes part in a cross-placement test.
    let testId: String?
    /// Each variation's group, in order (nil for one outside the test).
    let groups: [String?]

    /// The group of the variation at `index` (nil outside the test, or past the list).
    func group(at index: Int) -> String? { groups.indices.contains(index) ? groups[index] : nil }

    init(_ variations: [Fields], path: String) throws(WireError) {
        var maps: [[String: String]?] = []
        for variation in variations {
            guard let info = try variation.optionalObject("cross_placement_info") else {
                maps.append(nil)
                continue
            }
            let mapFields = try info.object("placement_with_variation_map")
            var map: [String: String] = [:]
            for member in mapFields.object.members {
                guard case .string(let variationId) = member.value, !variationId.isEmpty else {
                    throw WireError.wrongParam(mapFields.fieldPath(member.key), "expected the variation id this placement shows in the test")
                }
                map[member.key] = variationId
            }
            maps.append(map.isEmpty ? nil : map)
        }
        let placementSets = Set(maps.compactMap { $0?.keys.sorted() })
        guard placementSets.count <= 1 else {
            throw WireError.wrongParam(path, "the variations' cross_placement_info name different sets of placements; a placement takes part in one cross-placement test")
        }
        guard let placements = placementSets.first, let first = placements.first else {
            testId = nil
            groups = maps.map { _ in nil }
            return
        }
        testId = String(decoding: JSONWriter.encode(.array(placements.map { .string($0) })), as: UTF8.self)
        groups = maps.map { $0?[first] }
    }
}

extension Variation {
    /// A paywall variation of the vendor's file (formats 8 and 9). Its builder layout
    /// (`paywall_builder`) is the vendor's own layout language, not Paywire's: it is not served
    /// (`builder` is null).
    init(vendor fields: Fields, version: Int, crossPlacementGroup: String?) throws(WireError) {
        let variationId = try fields.identifier("variation_id")
        let paywallId = try fields.identifier("paywall_id")
        let paywallName = try fields.string("paywall_name")
        let weight = try fields.int("weight", in: 0...100)
        var products: [ProductReference] = []
        for product in try fields.objects("products") { products.append(try ProductReference(vendor: product, version: version)) }
        self.init(variationId: variationId, paywallId: paywallId, paywallName: paywallName, weight: weight,
                  products: products, remoteConfigs: try RemoteConfig.vendor(fields),
                  crossPlacementGroup: crossPlacementGroup)
    }
}

extension OnboardingVariation {
    /// An onboarding variation of the vendor's file: its builder's `config_url` is the page the
    /// host loads.
    init(vendor fields: Fields, crossPlacementGroup: String?) throws(WireError) {
        let variationId = try fields.identifier("variation_id")
        let onboardingId = try fields.identifier("onboarding_id")
        let onboardingName = try fields.string("onboarding_name")
        let weight = try fields.int("weight", in: 0...100)
        let url = try fields.object("onboarding_builder").identifier("config_url")
        self.init(variationId: variationId, onboardingId: onboardingId, onboardingName: onboardingName, weight: weight,
                  remoteConfigs: try RemoteConfig.vendor(fields), url: url, recordEmailOnProfile: false,
                  crossPlacementGroup: crossPlacementGroup)
    }
}

extension ProductReference {
    /// A product of a vendor paywall: its store id, its offers, and Google Play's base plan and
    /// offer (`base_plan_id`, `offer_id`). What it grants: in format 8, `is_consumable` as the
    /// consumable type; from format 9, which the vendor's SDKs require of every product, its
    /// `access_level_id` and the dashboard's `product_type` (see `vendorProductType`). As the
    /// vendor's SDKs read it, a promotional offer whose `promotional_offer_eligibility` is
    /// `false` is not named.
    init(vendor fields: Fields, version: Int) throws(WireError) {
        self.init(vendorProductId: try fields.identifier("vendor_product_id"))
        if version >= 9 {
            accessLevelId = try fields.identifier("access_level_id")
            productType = ProductReference.vendorProductType(try fields.string("product_type"))
        } else if try fields.optionalBool("is_consumable") == true {
            productType = .consumable
        }
        let promotional = try fields.optionalString("promotional_offer_id").flatMap { $0.isEmpty ? nil : $0 }
        promotionalOfferId = fields.optional("promotional_offer_eligibility") == .bool(false) ? nil : promotional
        winBackOfferId = try fields.optionalString("win_back_offer_id").flatMap { $0.isEmpty ? nil : $0 }
        basePlanId = try fields.optionalString("base_plan_id").flatMap { $0.isEmpty ? nil : $0 }
        offerId = try fields.optionalString("offer_id").flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension RemoteConfig {
    /// A vendor variation's `remote_config` (`{lang, data}` or null): the one localization the
    /// file holds. Its `lang` must be a language tag, or it could never answer a request.
    static func vendor(_ fields: Fields) throws(WireError) -> [RemoteConfig] {
        guard let config = try fields.optionalObject("remote_config") else { return [] }
        return [try vendorLocalization(config)]
    }

    /// One `{lang, data}` of the vendor's file, its `lang` checked to be a language tag.
    static func vendorLocalization(_ config: Fields) throws(WireError) -> RemoteConfig {
        let remoteConfig = try RemoteConfig.load(config)
        guard LanguageTag(remoteConfig.lang) != nil else {
            throw WireError.wrongParam(config.fieldPath("lang"), "'\(remoteConfig.lang)' is not a language tag like en or pt-BR")
        }
        return remoteConfig
    }
}
