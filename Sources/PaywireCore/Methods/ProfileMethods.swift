import PaywireModel
import PaywireWire

extension MethodTable {
    /// The user: identity, attributes, access.
    static let profileMethods: [MethodEntry] = [
        MethodEntry("get_profile") { client, params throws(WireError) in try client.profileSync.get(try ProfileRequest(params)) },
        MethodEntry("refresh_profile") { client, params throws(WireError) in
            let (loadTimeout, clamped) = try PlacementRequest.loadTimeout(params)
            return try client.profileSync.refresh(loadTimeout: loadTimeout, clamped: clamped)
        },
        .now("app_did_become_active") { client, _ throws(WireError) in
            client.profiles.refreshInBackground(reason: "app_did_become_active")
            return done
        },
        .now("update_profile") { client, params throws(WireError) in
            try updateProfile(client, params)
            return done
        },
        .now("set_integration_identifiers") { client, params throws(WireError) in
            try client.profiles.update({ (profile: inout Profile) throws(WireError) in
                try IntegrationRules.apply(params, to: &profile.integrationIds)
            }, beforeKeeping: { _, next throws(WireError) in try client.outbox.keepProfileRecord(.integrationIds, profile: next) })
            return done
        },
        .now("update_attribution") { client, params throws(WireError) in
            let (source, attribution) = try IntegrationRules.attribution(params)
            try client.profiles.update({ (profile: inout Profile) throws(WireError) in profile.attributions[source] = attribution },
                                       beforeKeeping: { _, next throws(WireError) in
                try client.outbox.keepProfileRecord(.installAttribution, profile: next, source: source)
            })
            return done
        },
        .now("identify") { client, params throws(WireError) in
            let customerUserId = try params.string("customer_user_id")
            try Identity.checkCustomerUserId(customerUserId, "customer_user_id")
            let token = try params.optionalString("identity_token")
            if let token { try Identity.checkIdentityToken(token, "identity_token") }
            let moved = try client.profiles.identify(customerUserId, beforeKeeping: { next throws(WireError) in
                try client.outbox.keepProfileRecord(.identity, profile: next, identityToken: token)
            })
            // The same customer again with a token: a proof the backend refused (an expired
            // token, say) is sent again with a fresh one.
            if !moved, let token {
                try client.outbox.keepProfileRecord(.identity, profile: client.profiles.current, identityToken: token)
            }
            return done
        },
        MethodEntry("redeem_web_purchase") { client, params throws(WireError) in
            let (loadTimeout, _) = try PlacementRequest.loadTimeout(params)
            return try client.webRedemptions.redeem(url: try params.string("url"), loadTimeout: loadTimeout)
        },
        .now("logout") { client, _ throws(WireError) in
            try client.profiles.logout()
            return done
        },
    ]
}

extension MethodTable {
    /// Applies `update_profile`; the backend hears of it (a record in the outbox) only when
    /// what it is sent changed: the same update twice sends once.
    fileprivate static func updateProfile(_ client: Client, _ params: Fields) throws(WireError) {
        try client.profiles.apply(params, beforeKeeping: { old, next throws(WireError) in
            guard old.sentAttributes != next.sentAttributes else { return }
            try client.outbox.keepProfileRecord(.profileAttributes, profile: next)
        })
    }
}
