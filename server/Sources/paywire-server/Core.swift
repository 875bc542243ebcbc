import PaywireCore

// The one file of the server that imports the core. Everything the server takes from it passes
// through here: JSON with exact number text and key order, the bundle as the backend serves it,
// and the few rules device and server must apply alike (product catalog and expiry arithmetic,
// grant activity, the A/B tests a bundle defines, wire dates). When the core is split into
// layered targets, this file alone changes its imports.

typealias JSONValue = PaywireCore.JSONValue
typealias JSONObject = PaywireCore.JSONObject
typealias JSONNumber = PaywireCore.JSONNumber
typealias ServableBundle = PaywireCore.ServableBundle
/// A test-store product as the server grants it.
typealias Product = DevServerSupport.Product
/// One A/B test of a placement's audience: its name and variation weights.
typealias Experiment = DevServerSupport.Experiment

/// The core's rules and readers, by the names the server uses.
enum Core {
    /// Parses JSON as the core does: numbers keep their text, objects their key order.
    static func parseJSON(_ bytes: [UInt8]) throws -> JSONValue { try DevServerSupport.parseJSON(bytes) }

    /// Compact JSON text of a value (numbers as written, keys in order).
    static func encode(_ value: JSONValue) -> [UInt8] { JSONWriter.encode(value) }

    /// A finite double as a JSON number; nil for NaN or infinity.
    static func number(_ value: Double) -> JSONNumber? { DevServerSupport.number(value) }

    /// Whether a grant gives access at `now`, by the device's rule.
    static func grantIsActive(now: Int, expiresAt: Int?, isRefund: Bool, isInGracePeriod: Bool, gracePeriodExpiresAt: Int?) -> Bool {
        DevServerSupport.grantIsActive(now: now, expiresAt: expiresAt, isRefund: isRefund, isInGracePeriod: isInGracePeriod,
                                       gracePeriodExpiresAt: gracePeriodExpiresAt)
    }

    /// Milliseconds since the epoch as the wire's `YYYY-MM-DDTHH:MM:SS.sssZ`.
    static func isoDate(milliseconds: Int) -> String { DevServerSupport.isoDate(milliseconds: milliseconds) }

    /// A wire date as milliseconds since the epoch; nil for anything else.
    static func parseISODate(_ text: String) -> Int? { DevServerSupport.parseISODate(text) }

    /// The bundle's placements and onboardings, each response built once from the authored text.
    static func servableBundle(_ bytes: [UInt8]) throws -> ServableBundle {
        do {
            return try ServableBundle.load(bytes)
        } catch {
            throw CoreProblem(error.message)
        }
    }

    /// The strong ETag of a body (quoted MD5), as the bundle's responses carry.
    static func etag(of body: [UInt8]) -> String { ServableBundle.etag(of: body) }

    /// The A/B tests of every paywall placement of a bundle, by placement id.
    static func experiments(bundle bytes: [UInt8]) throws -> [String: [Experiment]] {
        do {
            return try DevServerSupport.experiments(bundle: bytes)
        } catch {
            throw CoreProblem(error.message)
        }
    }

    /// Test-store products from a JSON array or a client config's `store.products`.
    static func products(_ bytes: [UInt8]) throws -> [Product] {
        do {
            return try DevServerSupport.products(bytes)
        } catch {
            throw CoreProblem(error.message)
        }
    }
}

/// A bundle, catalog or JSON text the core refused, with its reason.
struct CoreProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
