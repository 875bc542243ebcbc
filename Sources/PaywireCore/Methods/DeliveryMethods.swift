import PaywireModel
import PaywireWire

extension MethodTable {
    /// Paywalls, onboardings and products: what to show.
    static let deliveryMethods: [MethodEntry] = [
        MethodEntry("set_fallback", fastPath: { (client: Client, params: [UInt8]) throws(WireError) -> CallOutcome? in
            // A bundle of megabytes is indexed where it sits in the params text, not parsed
            // into a tree first; any other form of params takes the general path.
            // A bundle judged against its signature takes the general path.
            guard client.documents == nil, let inline = try FallbackBundle.loadInline(params: params) else { return nil }
            return .done(client.server.install(inline, verification: nil))
        }) { (client: Client, params: Fields) throws(WireError) -> CallOutcome in
            let (bundle, verification) = try FallbackBundle.load(try ClientConfig.fallbackSource(params), files: client.files,
                                                                 documents: client.documents, log: client.log)
            return .done(client.server.install(bundle, verification: verification))
        },
        MethodEntry("get_paywall") { client, params throws(WireError) in
            // A paywall by id alone is looked up in the bundle; with its placement it goes
            // through the placement's sources (backend, cache, bundle) like any other.
            if params.optional("placement_id") == nil, let paywallId = try params.optionalString("paywall_id"), !paywallId.isEmpty {
                return .done(try client.loader.getPaywall(byId: paywallId, locale: try params.optionalString("locale")))
            }
            let request = try PlacementRequest(params)
            return try client.loader.get(request, kind: .paywall, method: "get_paywall",
                                         choice: request.paywallId.map { .paywall($0) } ?? .byAudience)
        },
        MethodEntry("get_presentation") { client, params throws(WireError) in
            let presenter = client.presenter
            return try client.loader.get(try PlacementRequest(params), kind: .paywall, method: "get_presentation",
                                         respond: { presenter.respond($0) })
        },
        .now("set_debug_overrides") { client, params throws(WireError) in
            try client.overrides.replace(try DebugOverridesRequest(params).placements)
            return done
        },
        MethodEntry("get_paywall_for_default_audience") { client, params throws(WireError) in
            try client.loader.get(try PlacementRequest(params), kind: .paywall, method: "get_paywall_for_default_audience",
                                  choice: .defaultAudience)
        },
        MethodEntry("prefetch") { client, params throws(WireError) in
            try client.loader.prefetch(try PrefetchRequest(params))
        },
        MethodEntry("get_onboarding") { client, params throws(WireError) in
            try client.loader.get(try PlacementRequest(params), kind: .onboarding, method: "get_onboarding")
        },
        MethodEntry("get_paywall_products") { client, params throws(WireError) in
            let paywall = try PaywallReference(try params.object("paywall"))
            let policy = try params.optionalEnum("fetch_policy", ProductsFetchPolicy.self)
            return try client.products.get(paywall, waitForValidation: policy == .wait_for_receipt_validation)
        },
        MethodEntry("get_remote_config") { client, params throws(WireError) in
            let paywall = try PaywallReference(try params.object("paywall"))
            let policy = try params.optionalEnum("fetch_policy", ProductsFetchPolicy.self)
            return try client.products.get(paywall, answer: .remoteConfig, waitForValidation: policy == .wait_for_receipt_validation)
        },
        .now("log_show_paywall") { client, params throws(WireError) in
            let paywall = try PaywallReference(try params.object("paywall"))
            let eventId: String?
            do throws(WireError) {
                eventId = try client.outbox.paywallShown(Exposure(paywall))
            } catch {
                throw error.renamingField(ExposurePaths.hostPath)
            }
            client.log(.info, "paywall shown", details: [
                ("placement_id", .string(paywall.placementId)),
                ("variation_id", .string(paywall.variationId)),
                ("ab_test_name", .string(paywall.abTestName)),
            ])
            return .success { writer in
                writer.object { writer in
                    if let eventId { writer.member("event_id", eventId) } else { writer.member("analytics_disabled", true) }
                }
            }
        },
        MethodEntry("flush_analytics") { client, params throws(WireError) in
            try client.outbox.flush(timeoutMilliseconds: try params.optionalWide("timeout_ms", in: 10...600_000) ?? 10_000)
        },
    ]
}

/// How `get_paywall_products` treats intro-offer eligibility the store has not settled.
enum ProductsFetchPolicy: String, WireEnum, Sendable {
    /// Answer at once; unsettled eligibility is `unknown`.
    case default_policy = "default"
    /// Wait for the store to validate the receipt, so eligibility is settled.
    case wait_for_receipt_validation
}

/// Where the host's paywall carries each member of an exposure: a refused exposure names the
/// member the host gave.
enum ExposurePaths {
    static func hostPath(_ recordPath: String) -> String? {
        switch recordPath {
        case "params.placement_id": return "paywall.placement.developer_id"
        case "params.audience_name", "params.revision", "params.ab_test_name", "params.placement_audience_version_id":
            return "paywall.placement." + recordPath.dropFirst("params.".count)
        case "params.variation_id", "params.paywall_id", "params.paywall_name": return "paywall." + recordPath.dropFirst("params.".count)
        default: return nil
        }
    }
}
