#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PaywireCore
@testable import PaywireModel
@testable import PaywireWire

/// Reads real files (the repository's bundles) for tests; no storage.
final class ReadingFileSystem: FileSystem {
    func read(path: String) throws(WireError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw WireError(.notFound, "cannot open '\(path)'") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    func openStorage(directory: String) throws(WireError) -> Storage { MemoryStorage() }
}

@Suite struct FileSystemTests {
    private func refusal(_ config: String) -> WireError? {
        do throws(WireError) {
            _ = try Client(config: try ClientConfig.parse(Array(config.utf8)), sink: RecordingSink(), scheduler: nil, clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom())
            return nil
        } catch {
            return error
        }
    }

    @Test func aClientWithoutAFileSystemRefusesAFallbackPathNamingTheField() {
        let error = refusal(#"{"profile_id":"p","fallback":{"path":"tests/conformance/bundles/basic.json"}}"#)
        #expect(error?.code == .wrongParam)
        #expect(error?.details["field"] == .string("fallback.path"))
    }

    @Test func aClientWithoutAFileSystemRefusesAStorageDirNamingTheField() {
        let error = refusal(#"{"profile_id":"p","storage_dir":"/nonexistent/paywire"}"#)
        #expect(error?.code == .wrongParam)
        #expect(error?.details["field"] == .string("storage_dir"))
    }

    @Test func setFallbackByPathReadsThroughTheClientsFileSystem() throws {
        let client = try Client(config: try ClientConfig.parse(Array(#"{"profile_id":"p"}"#.utf8)), sink: RecordingSink(),
                                scheduler: nil, clock: ManualClock(wall: 1_700_000_000_000), random: CountingRandom(), files: ReadingFileSystem())
        let response = client.call(method: "set_fallback", params: Array(#"{"path":"tests/conformance/bundles/basic.json"}"#.utf8))
        #expect(response.status == .ok)
    }
}
