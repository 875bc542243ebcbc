import PaywireModel
import PaywireWire

extension MethodTable {
    /// Paywall views: what the host reports the user did, and what it asks.
    static let paywallViewMethods: [MethodEntry] = [
        .screen("create_paywall_view") { client, params throws(WireError) in
            let paywall = try PaywallReference(try params.object("paywall"))
            let preload = try params.optionalBool("preload_products") ?? false
            let context = try params.optionalObject("context").map { (fields: Fields) throws(WireError) in try ViewContext(fields) }
            let info = client.paywallViews.create(paywall, preloadProducts: preload, context: context)
            return .success { writer in info.write(to: &writer) }
        },
        .screen("present_paywall_view") { client, params throws(WireError) in
            try client.paywallViews.handle(try params.identifier("view_id")) { machine throws(WireError) in try machine.present() }
            return done
        },
        .screen("dismiss_paywall_view") { client, params throws(WireError) in
            let viewId = try params.identifier("view_id")
            try client.paywallViews.inspect(viewId) { _ in }
            let reason = try params.optionalEnum("reason", DismissReason.self) ?? .programmatic
            try client.paywallViews.handle(viewId) { machine throws(WireError) in try machine.dismiss(reason) }
            return done
        },
        view("paywall_view_select_product") { machine, params throws(WireError) in
            try machine.selectProduct(try params.identifier("product_id"))
        },
        view("paywall_view_make_purchase") { machine, params throws(WireError) in
            let productId = try params.identifier("product_id")
            let update = try params.optionalObject("subscription_update").map { (fields: Fields) throws(WireError) in
                try SubscriptionUpdate(fields, productId: productId)
            }
            return try machine.purchase(productId, replacing: update)
        },
        view("paywall_view_restore") { machine, _ throws(WireError) in try machine.restore() },
        view("paywall_view_perform_action") { machine, params throws(WireError) in
            machine.perform(try ViewAction(try params.object("action")))
        },
        view("paywall_view_open_web_payment") { machine, params throws(WireError) in
            try machine.openWebPayment(try params.identifier("product_id"))
        },
        view("paywall_view_submit_promo_code") { machine, params throws(WireError) in
            let code = try params.identifier("code")
            guard code.utf8.count <= ValueLimits.maxStringBytes else {
                throw WireError.wrongParam("code", "is longer than \(ValueLimits.maxStringBytes) bytes")
            }
            return machine.submitPromoCode(code)
        },
        view("paywall_view_report_rendering_failure") { machine, params throws(WireError) in
            let message = try params.optionalString("message") ?? "the paywall could not be rendered"
            var details = JSONObject()
            if let underlying = try params.optionalString("underlying_error") { details.set("underlying_error", .string(underlying)) }
            return machine.renderingFailed(WireError(.renderingFailed, message, details: details))
        },
        .now("paywall_view_get_configuration") { client, params throws(WireError) in
            let resolved = try client.paywallViews.configuration(try params.identifier("view_id"))
            return .success { writer in writer.value(resolved) }
        },
    ]

    /// Onboarding views: pages' messages in, canonical events out, answers kept.
    static let onboardingMethods: [MethodEntry] = [
        .screen("create_onboarding_view") { client, params throws(WireError) in
            let onboarding = try OnboardingReference(try params.object("onboarding"))
            let opensPaywalls = try params.optionalBool("open_paywall") ?? false
            let info = client.onboardingViews.create(onboarding, opensPaywalls: opensPaywalls, locale: try params.optionalString("locale"))
            return .success { writer in info.write(to: &writer) }
        },
        .screen("onboarding_view_ingest") { client, params throws(WireError) in
            try client.onboardingViews.ingest(try params.identifier("view_id")) { () throws(WireError) in
                let type = try params.optionalString("type")
                guard let message = params.optional("message") else { throw WireError.wrongParam("message", "is required") }
                return (message, type)
            }
        },
        .now("get_onboarding_state") { client, params throws(WireError) in
            try client.onboardingViews.state(try params.identifier("onboarding_id"))
        },
        .screen("onboarding_view_report_error") { client, params throws(WireError) in
            let viewId = try params.identifier("view_id")
            let message = try params.optionalString("message") ?? "the onboarding page could not be loaded or rendered"
            var details = JSONObject()
            if let underlying = try params.optionalString("underlying_error") { details.set("underlying_error", .string(underlying)) }
            try client.onboardingViews.reportError(viewId, WireError(.renderingFailed, message, details: details))
            return done
        },
    ]

    /// A method that gives one input to the paywall view `view_id` and answers `null`.
    private static func view(_ name: String,
                             _ input: @escaping @Sendable (inout PaywallViewMachine, Fields) throws(WireError) -> [PaywallViewAction]) -> MethodEntry {
        .screen(name) { client, params throws(WireError) in
            try client.paywallViews.handle(try params.identifier("view_id")) { machine throws(WireError) in try input(&machine, params) }
            return done
        }
    }
}
