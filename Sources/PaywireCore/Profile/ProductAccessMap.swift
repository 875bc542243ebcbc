import PaywireModel
import PaywireWire

/// The product-to-access-level map the device last received: what each product of the
/// placements it served (the bundle's or the backend's) grants. Offline access grants by it
/// and by nothing else (`OfflineAccessRules.decide`). Kept under `product_access` so a cold
/// start without the backend has it; the latest placement that names a product has the last
/// word (one that names no access level for it takes the product out).
///
/// Kept as every record: written first, and changed in memory only when the write worked; a
/// failed write is logged and the map stays as it was.
final class ProductAccessMap {
    static let storageKey = "product-access"

    private let storage: Storage
    private let log: Log
    private(set) var entries: [String: ProductAccess]

    /// The kept map; an unreadable record reads as empty (the next placement fills it again).
    init(storage: Storage, log: Log) {
        self.storage = storage
        self.log = log
        let kept = (try? storage.read(ProductAccessMap.storageKey)) ?? nil
        entries = kept.flatMap(ProductAccessMap.read) ?? [:]
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Learns what every variation of `placement` says of its products.
    func learn(_ placement: Placement<Variation>) {
        learn(placement.audiences.flatMap { $0.variations.flatMap { $0.products } })
    }

    /// Learns what `products` say, in order; kept when it changed the map.
    func learn(_ products: [ProductReference]) {
        var next = entries
        for product in products {
            if let level = product.accessLevelId {
                next[product.vendorProductId] = ProductAccess(accessLevelId: level, productType: product.productType)
            } else {
                next.removeValue(forKey: product.vendorProductId)
            }
        }
        guard next != entries else { return }
        do throws(WireError) {
            try storage.write(ProductAccessMap.storageKey, ProductAccessMap.record(next))
            entries = next
        } catch {
            log(.error, "could not keep the product-to-access-level map: \(error.message)",
                details: error.logDetails)
        }
    }

    /// `{"products": {<vendor_product_id>: {"access_level_id", "product_type"}}}`, by product id.
    private static func record(_ entries: [String: ProductAccess]) -> [UInt8] {
        JSONWriter.encode(.object(JSONObject([("products", .object(JSONObject(entries.sorted { $0.key < $1.key }.map { id, access in
            (id, .object(JSONObject([("access_level_id", .string(access.accessLevelId)),
                                     ("product_type", access.productType.map { .string($0.rawValue) } ?? .null)])))
        })))])))
    }

    private static func read(_ bytes: [UInt8]) -> [String: ProductAccess]? {
        guard case .object(let document)? = try? JSONParser.parse(bytes), case .object(let products)? = document["products"] else { return nil }
        var entries: [String: ProductAccess] = [:]
        for member in products.members {
            guard case .object(let fields) = member.value, case .string(let level)? = fields["access_level_id"], !level.isEmpty else { continue }
            var type: ProductType?
            if case .string(let text)? = fields["product_type"] { type = ProductType(rawValue: text) }
            entries[member.key] = ProductAccess(accessLevelId: level, productType: type)
        }
        return entries
    }
}
