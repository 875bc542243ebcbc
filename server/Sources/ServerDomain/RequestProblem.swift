/// A store's message the server cannot read (`400 invalid_request`), naming the member. The
/// device's records are read by the model's types, whose problems are `WireError`s.
package struct RequestProblem: Error {
    package let message: String
    package init(_ message: String) { self.message = message }
}
