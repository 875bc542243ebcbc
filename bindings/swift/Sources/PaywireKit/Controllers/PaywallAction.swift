import Foundation

/// What the user did on a paywall besides buying and restoring, as the seeds name it: the
/// builder's `close` and `openURL`, a `custom` button's id, and the AppDNA seed's CTA, feature,
/// plan and link taps. `close` and `systemBack` also dismiss the view (the core does it).
public enum PaywallAction: Sendable, Hashable {
    /// The close button.
    case close
    /// The system's back gesture or button.
    case systemBack
    /// A link (terms, privacy policy) to open.
    case openURL(URL)
    /// A button with an action id set in the builder.
    case custom(id: String)
    /// The main call-to-action button.
    case ctaTapped
    /// A feature item was selected.
    case featureSelected
    /// The user switched between plans.
    case planChanged
    /// A link was tapped.
    case linkTapped
    /// An action this binding does not know (a newer library's), or an `open_url` whose value is
    /// not a URL: its wire `type` and `value`.
    case unknown(type: String, value: String?)

    /// The action as the wire has it (`{type, value?}`).
    public var viewAction: ViewAction {
        switch self {
        case .close: ViewAction(type: .close)
        case .systemBack: ViewAction(type: .systemBack)
        case .openURL(let url): ViewAction(type: .openUrl, value: url.absoluteString)
        case .custom(let id): ViewAction(type: .custom, value: id)
        case .ctaTapped: ViewAction(type: .ctaTapped)
        case .featureSelected: ViewAction(type: .featureSelected)
        case .planChanged: ViewAction(type: .planChanged)
        case .linkTapped: ViewAction(type: .linkTapped)
        case .unknown(let type, let value): ViewAction(type: ViewActionType(rawValue: type), value: value)
        }
    }

    /// The action of a wire `{type, value?}`.
    public init(_ action: ViewAction) {
        switch action.type {
        case .close: self = .close
        case .systemBack: self = .systemBack
        case .openUrl:
            if let text = action.value, let url = URL(string: text) {
                self = .openURL(url)
            } else {
                self = .unknown(type: action.type.rawValue, value: action.value)
            }
        case .custom: self = .custom(id: action.value ?? "")
        case .ctaTapped: self = .ctaTapped
        case .featureSelected: self = .featureSelected
        case .planChanged: self = .planChanged
        case .linkTapped: self = .linkTapped
        case .unknown(let type): self = .unknown(type: type, value: action.value)
        }
    }
}
