import PaywireWire

/// Why the backend refused a transaction: the codes of a `422` purchase answer and of a
/// restore's `refused` entries.
public enum RefusalCode: String, WireEnum, Sendable {
    case verificationFailed = "verification_failed"
    case unknownProduct = "unknown_product"
    case transactionConflict = "transaction_conflict"
    case unsupportedStore = "unsupported_store"
    case malformedJws = "malformed_jws"
    case untrustedCertificate = "untrusted_certificate"
    case invalidSignature = "invalid_signature"
    case wrongBundleId = "wrong_bundle_id"
    case wrongEnvironment = "wrong_environment"
    case invalidPayload = "invalid_payload"
    case revoked
    /// Restores only: another profile holds the transaction and keeps it (`--transfer-policy keep`).
    case belongsToAnotherProfile = "belongs_to_another_profile"
}

/// The backend's answer to `POST /v1/purchases`: the transaction kept (`200`, with its status)
/// or refused (`422`, with the code and a reason), and the profile as it now stands either way,
/// named by its `profile_id` (signed with the body: a device refuses an answer about another).
public struct PurchaseAnswer: Sendable {
    public enum Outcome: Sendable {
        case kept(transactionId: String, status: PurchaseStatus)
        case refused(code: String, message: String)
    }

    /// Nil when the body carries no readable profile.
    public let profile: RemoteProfile.Snapshot?
    /// Nil when the body says neither.
    public let outcome: Outcome?

    public static func encode(_ outcome: Outcome, profileId: String, profile: ProfileAnswer) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: profile.bytes.count + 160 + profileId.utf8.count)
        writer.object { writer in
            writer.member("profile_id", profileId)
            switch outcome {
            case .kept(let transactionId, let status):
                writer.key("transaction")
                writer.object { writer in
                    writer.member("transaction_id", transactionId)
                    writer.member("status", status.rawValue)
                }
            case .refused(let code, let message):
                writer.key("error")
                writer.object { writer in
                    writer.member("code", code)
                    writer.member("message", message)
                }
            }
            writer.key("profile")
            writer.raw(profile.bytes)
        }
        return writer.bytes
    }

    /// Reads an answer leniently: a refusal in another shape (a proxy's, a `400`) still reaches
    /// the device as what it says.
    public static func decode(_ bytes: [UInt8]) -> PurchaseAnswer {
        guard case .object(let document)? = try? JSONParser.parse(bytes) else { return PurchaseAnswer(profile: nil, outcome: nil) }
        var profile: RemoteProfile.Snapshot?
        if case .object(let object)? = document["profile"] { profile = try? RemoteProfile.parse(profile: object) }
        var outcome: Outcome?
        if case .object(let error)? = document["error"], case .string(let code)? = error["code"] {
            var message = ""
            if case .string(let text)? = error["message"] { message = text }
            outcome = .refused(code: code, message: message)
        } else if case .object(let transaction)? = document["transaction"], case .string(let id)? = transaction["transaction_id"],
                  case .string(let status)? = transaction["status"], let kept = PurchaseStatus(rawValue: status) {
            outcome = .kept(transactionId: id, status: kept)
        }
        return PurchaseAnswer(profile: profile, outcome: outcome)
    }
}

/// The backend's answer to `POST /v1/restores`: the profile, named by its `profile_id` (signed
/// with the body), what was restored (and moved here from another profile), and what was refused.
public struct RestoreAnswer: Sendable {
    public struct Restored: Equatable, Sendable {
        public let transactionId: String
        public let vendorProductId: String
        /// The profile it moved from (`--transfer-policy transfer`); nil when it was this one's.
        public let fromProfileId: String?

        public init(transactionId: String, vendorProductId: String, fromProfileId: String?) {
            self.transactionId = transactionId
            self.vendorProductId = vendorProductId
            self.fromProfileId = fromProfileId
        }
    }

    public struct Refused: Equatable, Sendable {
        public let transactionId: String
        public let code: RefusalCode
        public let message: String

        public init(transactionId: String, code: RefusalCode, message: String) {
            self.transactionId = transactionId
            self.code = code
            self.message = message
        }
    }

    public let profile: RemoteProfile.Snapshot
    /// Nil when the answer has no list.
    public let restored: [Restored]?
    public let refused: [Refused]

    public static func encode(profileId: String, profile: ProfileAnswer, restored: [Restored], refused: [Refused]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: profile.bytes.count + 128 * (restored.count + refused.count) + 64 + profileId.utf8.count)
        writer.object { writer in
            writer.member("profile_id", profileId)
            writer.key("profile")
            writer.raw(profile.bytes)
            writer.key("restored")
            writer.array { writer in
                for entry in restored {
                    writer.object { writer in
                        writer.member("transaction_id", entry.transactionId)
                        writer.member("vendor_product_id", entry.vendorProductId)
                        if let from = entry.fromProfileId { writer.member("from_profile_id", from) }
                    }
                }
            }
            writer.key("refused")
            writer.array { writer in
                for entry in refused {
                    writer.object { writer in
                        writer.member("transaction_id", entry.transactionId)
                        writer.member("code", entry.code.rawValue)
                        writer.member("message", entry.message)
                    }
                }
            }
        }
        return writer.bytes
    }

    /// Reads an answer; without a readable profile it is `decoding_failed`. Entries that cannot
    /// be read are left out (a newer backend's code among them).
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> RestoreAnswer {
        guard case .object(let document)? = try? JSONParser.parse(bytes), case .object(let profile)? = document["profile"] else {
            throw WireError(.decodingFailed, "the backend's restore answer has no profile")
        }
        var restored: [Restored]?
        if case .array(let items)? = document["restored"] {
            restored = items.compactMap { item in
                guard case .object(let entry) = item, case .string(let product)? = entry["vendor_product_id"] else { return nil }
                var transaction = "", from: String?
                if case .string(let id)? = entry["transaction_id"] { transaction = id }
                if case .string(let id)? = entry["from_profile_id"] { from = id }
                return Restored(transactionId: transaction, vendorProductId: product, fromProfileId: from)
            }
        }
        var refused: [Refused] = []
        if case .array(let items)? = document["refused"] {
            for item in items {
                guard case .object(let entry) = item, case .string(let id)? = entry["transaction_id"],
                      case .string(let text)? = entry["code"], let code = RefusalCode(rawValue: text) else { continue }
                var message = ""
                if case .string(let given)? = entry["message"] { message = given }
                refused.append(Refused(transactionId: id, code: code, message: message))
            }
        }
        return RestoreAnswer(profile: try RemoteProfile.parse(profile: profile), restored: restored, refused: refused)
    }

    /// The restored entries that moved here from another profile, as transfers to `profileId`.
    public func transfers(to profileId: String) -> [Transfer] {
        (restored ?? []).compactMap { entry in
            guard let from = entry.fromProfileId, !entry.transactionId.isEmpty else { return nil }
            return Transfer(transactionId: entry.transactionId, vendorProductId: entry.vendorProductId, fromProfileId: from, toProfileId: profileId)
        }
    }
}
