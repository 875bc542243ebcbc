import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// The purchase rules that need no client: signatures, the backend's profile as the truth, and
/// purchase records.
@Suite struct PurchasesTests {
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 16), "Hi There", "9294727a3638bb1c13f48ef8158bfc9d"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "750c783e6ab0b503eaa86e310a5db738"),
        ([UInt8](repeating: 0xaa, count: 80), "Test Using Larger Than Block-Size Key - Hash Key First", "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd"),
    ])
    func hmacMD5MatchesRFC2202(_ key: [UInt8], _ message: String, _ expected: String) {
        #expect(Hex.encode(TestSignature.hmac(key: key, message: Array(message.utf8))) == expected)
    }

    @Test func theTestStoreSignsWhatTheDevServerChecks() {
        // Computed independently: Python's hmac over hashlib.md5.
        #expect(TestSignature.sign(transactionId: "t-1", originalTransactionId: "t-1", vendorProductId: "monthly",
                                   purchasedAt: 1_705_314_600_000, key: TestSignature.defaultKey)
                == "testsig1:02d8e8cbc2390caa6feb7ad31a389057")
    }

    @Test func theServerAcceptsOnlyTheTestStoresExactSignatureOfTheClaim() {
        func claim(_ verification: String, product: String = "monthly") -> TransactionClaim {
            TransactionClaim(transactionId: "t-1", originalTransactionId: "t-1", vendorProductId: product, verification: verification,
                             purchasedAt: 1_705_314_600_000, environment: .sandbox, store: .test, signedTransaction: nil)
        }
        let signed = "testsig1:02d8e8cbc2390caa6feb7ad31a389057"
        #expect(TestSignature.isValid(claim(signed), key: TestSignature.defaultKey))
        #expect(!TestSignature.isValid(claim(signed), key: "another key"))
        #expect(!TestSignature.isValid(claim(signed, product: "annual"), key: TestSignature.defaultKey))
        #expect(!TestSignature.isValid(claim("testsig1:02d8e8cbc2390caa6feb7ad31a389058"), key: TestSignature.defaultKey))
        #expect(!TestSignature.isValid(claim("testsig1:02D8E8CBC2390CAA6FEB7AD31A389057"), key: TestSignature.defaultKey))
        #expect(!TestSignature.isValid(claim(String(signed.dropLast())), key: TestSignature.defaultKey))
        #expect(!TestSignature.isValid(claim(""), key: TestSignature.defaultKey))
    }

    func grant(_ product: String, until: Int?, verified: Bool, transaction: String?) -> Profile.Grant {
        var grant = Profile.Grant(vendorProductId: product, activatedAt: 0, expiresAt: until)
        grant.verified = verified
        grant.transactionId = transaction
        return grant
    }

    @Test func theBackendsAccessReplacesTheDevicesButPendingGrantsStay() {
        var device = Profile(profileId: "p", customerUserId: nil)
        device.accessLevels = [("premium", grant("monthly", until: 100, verified: false, transaction: "pending-1")),
                               ("vip", grant("vip_pass", until: 100, verified: false, transaction: "answered-1")),
                               ("old", grant("legacy", until: nil, verified: true, transaction: nil))]
        var snapshot = RemoteProfile.Snapshot()
        snapshot.accessLevels = [("premium", grant("monthly", until: 50, verified: true, transaction: nil))]
        snapshot.isTestUser = true
        let applied = RemoteProfile.apply(snapshot, to: device, pending: ["pending-1"])
        #expect(applied.accessLevels.map(\.id) == ["premium"])
        // The pending local grant lasts longer, so it stands until the backend answers for it.
        #expect(applied.accessLevels.first?.grant.expiresAt == 100)
        #expect(applied.isTestUser)
    }

    @Test func deviceAttributesWinOverTheBackends() {
        var device = Profile(profileId: "p", customerUserId: nil)
        device.customAttributes = JSONObject([("plan", .string("device"))])
        var snapshot = RemoteProfile.Snapshot()
        snapshot.customAttributes = JSONObject([("plan", .string("backend")), ("country", .string("fr"))])
        let applied = RemoteProfile.apply(snapshot, to: device, pending: [])
        #expect(applied.customAttributes == JSONObject([("plan", .string("device")), ("country", .string("fr"))]))
    }

    @Test func aPurchaseRecordReadsBackItsTransaction() {
        let transaction = StoreTransaction(transactionId: "t-9", originalTransactionId: "t-1", vendorProductId: "annual", purchasedAt: 7,
                                           environment: .production, store: .appStore, verification: "jws", expiresAt: nil)
        let claim = PurchaseRecord.claim(eventId: "0190b6e2-7c4a-7d3e-9f00-2b8c1e4a5f62", transaction: transaction, state: .purchased,
                                         type: .consumable, price: nil, profile: Profile(profileId: "p-1", customerUserId: "c"),
                                         attribution: nil, observerMode: true, log: Log(level: .warn, sink: RecordingSink()))
        let kept = PurchaseRecord.kept(claim.encode())
        #expect(kept?.transaction == transaction)
        #expect(kept?.profileId == "p-1")
        #expect(kept?.finishedByCore == false)
        #expect(kept?.productType == .consumable)
    }

    @Test func aRefusalNamesItsCodeAndCarriesTheProfile() {
        let answer = PurchaseAnswer.decode(Array(#"{"error":{"code":"verification_failed","message":"no"},"profile":{"access_levels":{}}}"#.utf8))
        guard case .refused(let code, _)? = answer.outcome else { Issue.record("no refusal read"); return }
        #expect(code == "verification_failed")
        #expect(answer.profile?.accessLevels.isEmpty == true)
    }
}
