import Foundation
import PaywireKit

// The Swift runner of the Paywire conformance kit (tests/conformance/README.md): one JSON op a
// line on stdin, one JSON reply a line on stdout, through the library PaywireKit loads (found as
// every binding finds it: PAYWIRE_LIBRARY, the checkout's build/lib, the system).
let native: NativeLibrary
do {
    native = try NativeLibrary.get()
} catch {
    FileHandle.standardError.write(Data("paywire-swift-runner: \(error)\n".utf8))
    exit(70)
}
let ops = RunnerOps(native: native)
while let line = readLine(strippingNewline: true) {
    guard !line.allSatisfy(\.isWhitespace) else { continue }
    var reply: JSONObject
    let op = try? JSONValue(parsing: line)
    if case .object(let members)? = op {
        reply = ops.run(members)
        if let id = members["id"] { reply["id"] = id }
    } else {
        reply = ["runner_error": "an op that is not a JSON object"]
    }
    FileHandle.standardOutput.write(Data((JSONValue.object(reply).jsonText + "\n").utf8))
}
ops.freeLiveClients()
