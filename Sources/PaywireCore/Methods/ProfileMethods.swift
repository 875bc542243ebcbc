extension MethodTable {
    /// The user: identity, attributes, access.
    static let profileMethods: [MethodEntry] = [
        MethodEntry("get_profile") { client, params throws(WireError) in try client.profileSync.get(try ProfileRequest(params)) },
        MethodEntry("refresh_profile") { client, params throws(WireError) in
            let (loadTimeout, clamped) = try PlacementRequest.loadTimeout(params)
            return try client.profileSync.refresh(loadTimeout: loadTimeout, clamped: clamped)
        },
        .now("app_did_become_active") { client, _ throws(WireError) in
            client.profileSync.refreshInBackground(reason: "app_did_become_active")
            return done
        },
        .now("update_profile") { client, params throws(WireError) in
            try client.profiles.updateAttributes(try params.object("custom_attributes"))
            return done
        },
        .now("identify") { client, params throws(WireError) in
            try client.profiles.identify(try params.identifier("customer_user_id"))
            return done
        },
        .now("logout") { client, _ throws(WireError) in
            try client.profiles.logout()
            return done
        },
    ]
}
