import PaywireModel
import PaywireWire

/// An answer the user gave: which element, and its canonical value.
struct OnboardingStateUpdate: Sendable {
    /// One option of a select or multi-select.
    struct Option: Sendable {
        let id: String
        let value: String
        let label: String
    }

    enum InputKind: String, WireEnum, Sendable { case text, email, number }

    enum Value: Sendable {
        case select(Option)
        case multiSelect([Option])
        case input(InputKind, JSONValue)
        case datePicker(day: Int, month: Int, year: Int)
    }

    let elementId: String
    let value: Value

    var elementType: String {
        switch value {
        case .select: return "select"
        case .multiSelect: return "multi_select"
        case .input: return "input"
        case .datePicker: return "date_picker"
        }
    }

    /// The email the user typed, when this is an email input.
    var email: String? {
        if case .input(.email, .string(let address)) = value { return address }
        return nil
    }

    init(elementId: String, value: Value) {
        self.elementId = elementId
        self.value = value
    }

    init(_ fields: DialectFields) throws(WireError) {
        elementId = try fields.identifier("element_id", "elementId")
        let params = try fields.object("params", "params")
        let type = try params.identifier("type", "type")
        switch type {
        case "select":
            value = .select(try Option(try params.object("value", "value")))
        case "multi_select", "multiSelect":
            var options: [Option] = []
            for (index, element) in try params.array("value", "value").enumerated() {
                options.append(try Option(DialectFields(try Fields(element, path: "\(params.path("value"))[\(index)]"))))
            }
            value = .multiSelect(options)
        case "input":
            value = try OnboardingStateUpdate.input(try params.object("value", "value"))
        case "date_picker", "datePicker":
            let date = try params.object("value", "value")
            let day = try date.int("day", "day", min: 1)
            let month = try date.int("month", "month", min: 1)
            let year = try date.int("year", "year", min: 1)
            guard month <= 12, year <= 9999, day <= ISODate.daysIn(month: WideInt(month), year: WideInt(year)) else {
                throw date.error("", "\(year)-\(month)-\(day) is not a calendar date")
            }
            value = .datePicker(day: day, month: month, year: year)
        default:
            throw params.error("type", "'\(type)' is not one of: select, multi_select, input, date_picker")
        }
    }

    private static func input(_ fields: DialectFields) throws(WireError) -> Value {
        let kindName = try fields.identifier("type", "type")
        guard let kind = InputKind(rawValue: kindName) else {
            throw fields.error("type", "'\(kindName)' is not one of: text, email, number")
        }
        switch kind {
        case .text:
            return .input(.text, .string(try fields.string("value", "value")))
        case .email:
            let address = try fields.string("value", "value")
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else {
                throw fields.error("value", "'\(address)' is not an email address")
            }
            return .input(.email, .string(address))
        case .number:
            // Pages send numbers as JSON numbers or as the text of one; both become a number.
            let number: JSONNumber?
            switch fields.value("value", "value") {
            case .number(let value)?: number = value
            case .string(let text)?:
                if case .number(let parsed)? = try? JSONParser.parse(text) { number = parsed } else { number = nil }
            default: number = nil
            }
            guard let number, number.doubleValue != nil else { throw fields.error("value", "expected a finite number") }
            return .input(.number, .number(number))
        }
    }

    /// `"action": {element_id, element_type, value}`.
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("element_id", elementId)
            writer.member("element_type", elementType)
            writer.key("value")
            writeValue(to: &writer)
        }
    }

    func writeValue(to writer: inout JSONWriter) {
        switch value {
        case .select(let option): option.write(to: &writer)
        case .multiSelect(let options): writer.array { writer in for option in options { option.write(to: &writer) } }
        case .input(let kind, let value):
            writer.object { writer in
                writer.member("type", kind.rawValue)
                writer.member("value", value)
            }
        case .datePicker(let day, let month, let year):
            writer.object { writer in
                writer.member("day", day)
                writer.member("month", month)
                writer.member("year", year)
            }
        }
    }
}

extension OnboardingStateUpdate.Option {
    init(_ fields: DialectFields) throws(WireError) {
        id = try fields.identifier("id", "id")
        value = try fields.string("value", "value")
        label = try fields.string("label", "label")
    }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("id", id)
            writer.member("value", value)
            writer.member("label", label)
        }
    }
}

#if DEBUG
// Tests compare these; the release library never does and leaves their == out (20 KB in all).
extension OnboardingStateUpdate: Equatable {}
extension OnboardingStateUpdate.Option: Equatable {}
extension OnboardingStateUpdate.Value: Equatable {}
#endif
