/// A store's message the server cannot read (`400 invalid_request`), naming the member. The
/// device's records are read by the model's types, whose problems are `WireError`s.
struct RequestProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
