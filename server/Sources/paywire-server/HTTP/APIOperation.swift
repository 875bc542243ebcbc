import HTTPTypes
import PaywireModel
import PaywireWire

/// One operation of `api/openapi.yaml` as one value: its method and path, the door and scope
/// that open it, whether its answers are signed, whether it names profiles (and so stands
/// behind the profile door), and what it does with its input. `APIRoutes` lists them and
/// registers them; nothing about an operation is said anywhere else.
struct APIOperation: Sendable {
    let method: HTTPRequest.Method
    let path: String
    let door: Door
    /// Its answers carry access (a profile, or the word that it is unchanged): each is signed
    /// when the server has a response signing key.
    let signed: Bool
    /// It names profiles (in its path or body): the request must hold their credentials
    /// (`ProfileDoor`) before the operation runs.
    let behindProfileDoor: Bool
    /// It serves a document the device keeps, signed as this kind (`DocumentSignature`) when the
    /// server has a response signing key: over the answer and its ETag, with no nonce, so a
    /// cached copy is checked again offline.
    var document: String? = nil
    /// What the operation makes of its input: the profiles it names and the work to run.
    let read: @Sendable (RouteInput) -> Call

    /// A request read by its operation: the profiles it names (for the profile door), from the
    /// body the edge parsed once, and the operation's work on that same value.
    struct Call: Sendable {
        let profiles: [String]
        let run: @Sendable (API) async throws -> Answer
    }

    /// The path's parameter names, in order (`{profile_id}` gives `profile_id`).
    var parameterNames: [String] { RouteInput.parameterNames(path) }

    /// `METHOD path`, as the spec names the operation.
    var name: String { "\(method.rawValue) \(path)" }

    /// An operation of the app's key that names profiles: its work is given the route's input,
    /// whose body was parsed once (`RouteInput.parsed`), and the profiles are read from that same
    /// value (`ProfileDoor.named`).
    static func device(_ method: HTTPRequest.Method, _ path: String, signed: Bool = false,
                       _ run: @escaping @Sendable (API, RouteInput) async throws -> Answer) -> APIOperation {
        APIOperation(method: method, path: path, door: .app, signed: signed, behindProfileDoor: true) { input in
            let pathProfileId = input.path("profile_id")
            return Call(profiles: ProfileDoor.named(pathProfileId: pathProfileId.isEmpty ? nil : pathProfileId, parsed: input.parsed),
                        run: { api in try await run(api, input) })
        }
    }

    /// An operation that names no profile: opened by `door` alone; `document`: the kind its
    /// answers are signed as, when it serves a document the device keeps.
    static func plain(_ method: HTTPRequest.Method, _ path: String, _ door: Door, document: String? = nil,
                      _ run: @escaping @Sendable (API, RouteInput) async throws -> Answer) -> APIOperation {
        APIOperation(method: method, path: path, door: door, signed: false, behindProfileDoor: false, document: document) { input in
            Call(profiles: [], run: { api in try await run(api, input) })
        }
    }
}
