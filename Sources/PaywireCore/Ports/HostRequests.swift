/// What the core can ask the host, as `host_request` events with a `kind`.
enum HostRequestKind: String, Sendable {
    case storeFetchProducts = "store.fetch_products"
    case storePurchase = "store.purchase"
    case storeRestore = "store.restore"
    case observerPurchase = "observer.purchase"
    case productsRetry = "products.retry"
    case promoCodeValidate = "promo_code.validate"
    case webPaymentOpen = "web_payment.open"
    case http
}

/// A question the core put to the host that has not been answered yet.
struct PendingHostRequest: Sendable {
    let id: String
    let kind: HostRequestKind
    /// The view the request serves; empty for a request made for a call.
    let viewId: String
    /// The pending call the answer completes, for requests made for a call.
    let callToken: UInt64?
    let productId: String?
    /// The promo code asked about, for `promo_code.validate`.
    let code: String?
    /// The timer that fails the request when the host does not answer in time.
    let deadlineToken: UInt64
    /// What an `http` request fetches.
    var backend: BackendRequest? = nil
}

/// The open host requests of one client. Every request has a deadline; an id that timed out
/// is remembered (a bounded number of them) so a late answer is told apart from a wrong id.
struct HostRequests: Sendable {
    private(set) var pending: [String: PendingHostRequest] = [:]
    private var expired: [String] = []
    private var expiredSet = Set<String>()
    private var nextId = 1
    private static let expiredMemory = 1024

    mutating func makeId() -> String {
        defer { nextId += 1 }
        return "req-\(nextId)"
    }

    mutating func open(_ request: PendingHostRequest) { pending[request.id] = request }

    /// Takes an answered request off the list.
    mutating func answer(_ id: String) -> PendingHostRequest? { pending.removeValue(forKey: id) }

    /// Takes a timed-out request off the list and remembers its id.
    mutating func expire(_ id: String) -> PendingHostRequest? {
        guard let request = pending.removeValue(forKey: id) else { return nil }
        expired.append(id)
        expiredSet.insert(id)
        if expired.count > HostRequests.expiredMemory {
            expiredSet.remove(expired.removeFirst())
        }
        return request
    }

    func hasExpired(_ id: String) -> Bool { expiredSet.contains(id) }
}
