/// How the server's options and its one-shot command (`--render-paywall` and its listings) read
/// their arguments, so each takes `--flag value` and `--flag=value` alike.
enum Flags {
    /// `--flag=value` as the flag and its value; anything else as itself with no value.
    static func split(_ argument: String) -> (flag: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
