import PaywireWire

/// Whether a purchase was made with real money (`production`) or as a test (`sandbox`: the
/// App Store's sandbox, Xcode and local testing; Play's test purchases; Stripe's test mode; the
/// test store). The one spelling on the wire and in the database; each store's own spelling is
/// read here, once.
public enum StoreEnvironment: String, WireEnum, Sendable {
    case sandbox, production

    /// The App Store's `environment` (`Production`, `Sandbox`, `Xcode`, `LocalTesting`):
    /// everything but `Production` is a test.
    public init(appStore name: String) {
        self = name == "Production" ? .production : .sandbox
    }

    /// Play's `testPurchase`/`purchaseType` marks a purchase made by a license tester.
    public init(playTestPurchase: Bool) {
        self = playTestPurchase ? .sandbox : .production
    }

    /// Stripe's `livemode`: false for a test-mode event.
    public init(stripeLivemode: Bool) {
        self = stripeLivemode ? .production : .sandbox
    }

    public var isSandbox: Bool { self == .sandbox }
}

/// The store a transaction comes from. The stores the backend checks by their own signatures
/// or APIs have cases; a host may name any other store (`other`), which the backend grants
/// only with `--trust-host-stores`.
public enum StoreName: Hashable, Sendable, CustomStringConvertible {
    /// Paywire's development store: its transactions are signed with a public key, and are tests.
    case test
    case appStore
    case playStore
    case stripe
    case other(String)

    public init(rawValue: String) {
        switch rawValue {
        case "test": self = .test
        case "app_store": self = .appStore
        case "play_store": self = .playStore
        case "stripe": self = .stripe
        default: self = .other(rawValue)
        }
    }

    /// The wire's and the database's spelling.
    public var rawValue: String {
        switch self {
        case .test: return "test"
        case .appStore: return "app_store"
        case .playStore: return "play_store"
        case .stripe: return "stripe"
        case .other(let name): return name
        }
    }

    public var description: String { rawValue }
}
