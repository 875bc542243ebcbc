import Foundation

/// Where libpaywire is looked for, in order, as every binding looks (the Python binding's
/// `_native.py`, the JVM's and .NET's `LibraryLocator`):
///
/// 1. `PAYWIRE_LIBRARY`, when set: that path and nothing else.
/// 2. `build/lib/libpaywire.so.<ABI>` beside any folder above the running program, then above
///    this package's own sources: a checkout finds the library it built (`make lib`), also for
///    a program of its own that depends on `bindings/swift` by path.
/// 3. The dynamic loader's search (`libpaywire.so.<ABI>`: LD_LIBRARY_PATH, the system's paths).
/// 4. `lib/` under `PAYWIRE_PREFIX`, `/usr/local` and `/usr`.
enum LibraryLocator {
    static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                           executable: String? = executablePath(), sourceFile: String = #filePath) -> [String] {
        let file = fileName(abi: NativeLibrary.headerABIVersion)
        if let explicit = environment["PAYWIRE_LIBRARY"], !explicit.isEmpty { return [explicit] }
        var candidates: [String] = []
        for start in [executable, sourceFile].compactMap({ $0 }) {
            var folder = URL(fileURLWithPath: start).deletingLastPathComponent().standardizedFileURL
            while true {
                let candidate = folder.appendingPathComponent("build/lib/\(file)").path
                if !candidates.contains(candidate) { candidates.append(candidate) }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        candidates.append(file)
        for prefix in [environment["PAYWIRE_PREFIX"], "/usr/local", "/usr"].compactMap({ $0 }) where !prefix.isEmpty {
            candidates.append(URL(fileURLWithPath: prefix).appendingPathComponent("lib/\(file)").path)
        }
        return candidates
    }

    static func fileName(abi: UInt32) -> String {
        #if canImport(Darwin)
        return "libpaywire.\(abi).dylib"
        #else
        return "libpaywire.so.\(abi)"
        #endif
    }

    /// The running program's path (/proc/self/exe on Linux), nil when it cannot be told.
    static func executablePath() -> String? {
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        #endif
        return Bundle.main.executablePath
    }
}
