import Foundation

/// The wire methods whose Swift shape is the seeds' (`Adapty.makePurchase(product:)`, ...),
/// rather than the params object's members (Methods.g.swift has every other method).
extension PaywireClient {
    /// Buys `product` (one of ``getPaywallProducts(paywall:fetchPolicy:)``'s) through the store
    /// the configuration names (`make_purchase`). A cancelled purchase is a result, not an error.
    ///
    /// - Parameter offer: a promotional or win-back offer to apply (`{type, id}`).
    /// - Throws: ``PaywireError``: `purchase_failed`, `billing_unavailable`, `purchase_in_progress`, ...
    public func makePurchase(product: PaywallProduct, offer: PurchaseOffer? = nil) async throws -> PurchaseResult {
        let params = MakePurchaseParams(product: product.jsonValue.objectValue, offer: offer)
        let result: MakePurchaseResult = try await invoke("make_purchase", params)
        guard let purchase = result.purchaseResult else {
            throw PaywireError.binding(.decodingFailed, "make_purchase answered a purchase of type '\(result.type)', "
                                       + "which this binding does not know", details: ["result": result.jsonValue])
        }
        return purchase
    }

    /// Restores the user's purchases through the store (`restore_purchases`) and returns the
    /// profile with the access they grant.
    public func restorePurchases() async throws -> Profile {
        let result: RestorePurchasesResult = try await invoke("restore_purchases", RestorePurchasesParams())
        return result.profile
    }

    /// Records that the paywall was shown to the user (`log_show_paywall`): the exposure its A/B
    /// test is read from. Call it when the paywall appears.
    @discardableResult
    public func logShowPaywall(_ paywall: Paywall) async throws -> LogShowPaywallResult {
        try await invoke("log_show_paywall", LogShowPaywallParams(paywall: paywall))
    }

    /// Uses the fallback bundle in the file at `fileURL` (`set_fallback {path}`) when neither the
    /// backend nor the cache has a placement.
    @discardableResult
    public func setFallback(fileURL: URL) async throws -> SetFallbackResult {
        guard fileURL.isFileURL else {
            throw PaywireError.binding(.wrongParam, "setFallback(fileURL:) takes a file URL, not \(fileURL)")
        }
        return try await invoke("set_fallback", FallbackSource(path: fileURL.path))
    }

    /// Uses this fallback bundle (`set_fallback {bundle}`).
    @discardableResult
    public func setFallback(bundle: FallbackBundle) async throws -> SetFallbackResult {
        try await invoke("set_fallback", FallbackSource(bundle: bundle))
    }

    /// Tells the library who the user is in the app's own terms (`identify`). `identityToken`:
    /// the app's backend's signed proof of it (a JWT whose `sub` is `customerUserId`), which a
    /// server that proves identities needs; it is sent with the claim and never logged.
    public func identify(_ customerUserId: String, identityToken: String? = nil) async throws {
        try await perform("identify", IdentifyParams(customerUserId: customerUserId, identityToken: identityToken))
    }

    /// Updates the profile's attributes (`update_profile`): a member left nil is not changed, one
    /// set to `.some(nil)` is cleared.
    public func updateProfile(_ parameters: ProfileParameters) async throws {
        try await perform("update_profile", parameters)
    }
}
