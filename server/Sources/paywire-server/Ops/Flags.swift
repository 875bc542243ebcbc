import Foundation

/// What the server's options and its one-shot commands (`--render-paywall` and its listings,
/// `--sign-bundle`, `--certify-signing-key`) read their arguments with, so every one takes
/// `--flag value` and `--flag=value` alike and says the same when something is wrong.
enum Flags {
    /// `--flag=value` as the flag and its value; anything else as itself with no value.
    static func split(_ argument: String) -> (flag: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// Writes `message` to standard error, named as the server's like every other, and gives back
    /// `status`, for a command's exit.
    static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data(("paywire-server: " + message + "\n").utf8))
        return status
    }

    /// A file's text, read whole as UTF-8; nil when it cannot be read or is not UTF-8.
    static func text(ofFile path: String) -> String? {
        FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
    }
}
