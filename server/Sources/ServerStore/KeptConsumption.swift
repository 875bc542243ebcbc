import PaywireWire
import ServerDomain

extension ConsumptionInfo {
    /// Reads back what `json` wrote (the kept answer); a member missing or of another type is
    /// a store this code did not write.
    package init(kept value: JSONValue) throws(StorageProblem) {
        func number(_ key: String) throws(StorageProblem) -> Int {
            guard let number = value[key]?.asInt else { throw StorageProblem("the kept consumption answer's \(key) is not a number") }
            return number
        }
        func flag(_ key: String) throws(StorageProblem) -> Bool {
            guard let flag = value[key]?.asBool else { throw StorageProblem("the kept consumption answer's \(key) is not a boolean") }
            return flag
        }
        self.init(customerConsented: try flag("customerConsented"), consumptionStatus: try number("consumptionStatus"),
                  platform: try number("platform"), sampleContentProvided: try flag("sampleContentProvided"),
                  deliveryStatus: try number("deliveryStatus"), accountTenure: try number("accountTenure"), playTime: try number("playTime"),
                  lifetimeDollarsPurchased: try number("lifetimeDollarsPurchased"), lifetimeDollarsRefunded: try number("lifetimeDollarsRefunded"),
                  userStatus: try number("userStatus"), refundPreference: try number("refundPreference"))
    }
}
