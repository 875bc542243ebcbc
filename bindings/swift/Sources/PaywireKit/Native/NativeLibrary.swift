import CPaywire
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpaywire, opened at run time and looked up function by function: this binding never links
/// it, so an app builds without it and is told clearly, when it runs, where it looked.
///
/// The function types come from include/paywire.h through the CPaywire module. Every function is
/// thread-safe (the header says so); this type only holds the pointers, so it is `Sendable`.
package final class NativeLibrary: @unchecked Sendable {
    /// Where the library was found.
    package let path: String
    package let abiVersion: cpaywire_abi_version_fn
    package let version: cpaywire_version_fn
    package let statusName: cpaywire_status_name_fn
    package let stringFree: cpaywire_string_free_fn
    package let clientNew: cpaywire_client_new_fn
    package let clientFree: cpaywire_client_free_fn
    package let clientCall: cpaywire_client_call_fn
    package let clientCallAsync: cpaywire_client_call_async_fn
    package let clientSetEventHandler: cpaywire_client_set_event_handler_fn
    package let clientPoll: cpaywire_client_poll_fn

    /// The ABI this binding was written for: the header's PAYWIRE_ABI_VERSION.
    package static var headerABIVersion: UInt32 { cpaywire_header_abi_version() }

    /// The library, loaded once per process; the same error on every call while it cannot be.
    package static let shared: Result<NativeLibrary, PaywireLibraryError> = Result { try load() }
        .mapError { $0 as? PaywireLibraryError ?? PaywireLibraryError(message: "\($0)", tried: []) }

    /// The loaded library, or the error saying why there is none.
    package static func get() throws(PaywireLibraryError) -> NativeLibrary { try shared.get() }

    private init(path: String, handle: UnsafeMutableRawPointer) throws(PaywireLibraryError) {
        func symbol<T>(_ name: String, as type: T.Type) throws(PaywireLibraryError) -> T {
            guard let address = dlsym(handle, name) else {
                throw PaywireLibraryError(message: "\(path) has no \(name): not a Paywire library of this ABI", tried: [path])
            }
            return unsafeBitCast(address, to: type)
        }
        self.path = path
        abiVersion = try symbol("paywire_abi_version", as: cpaywire_abi_version_fn.self)
        version = try symbol("paywire_version", as: cpaywire_version_fn.self)
        statusName = try symbol("paywire_status_name", as: cpaywire_status_name_fn.self)
        stringFree = try symbol("paywire_string_free", as: cpaywire_string_free_fn.self)
        clientNew = try symbol("paywire_client_new", as: cpaywire_client_new_fn.self)
        clientFree = try symbol("paywire_client_free", as: cpaywire_client_free_fn.self)
        clientCall = try symbol("paywire_client_call", as: cpaywire_client_call_fn.self)
        clientCallAsync = try symbol("paywire_client_call_async", as: cpaywire_client_call_async_fn.self)
        clientSetEventHandler = try symbol("paywire_client_set_event_handler", as: cpaywire_client_set_event_handler_fn.self)
        clientPoll = try symbol("paywire_client_poll", as: cpaywire_client_poll_fn.self)
    }

    private static func load() throws(PaywireLibraryError) -> NativeLibrary {
        var tried: [String] = []
        for candidate in LibraryLocator.candidates() {
            if candidate.contains("/") && !FileManager.default.fileExists(atPath: candidate) {
                tried.append(candidate)
                continue
            }
            guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else {
                tried.append("\(candidate) (\(dlerror().map { String(cString: $0) } ?? "did not load"))")
                continue
            }
            let library = try NativeLibrary(path: candidate, handle: handle)
            let found = library.abiVersion()
            guard found == headerABIVersion else {
                throw PaywireLibraryError(
                    message: "\(candidate) has ABI \(found); this binding needs ABI \(headerABIVersion)", tried: tried + [candidate])
            }
            return library
        }
        throw PaywireLibraryError(
            message: "libpaywire not found: build it (`make lib` in a checkout), install libpaywire\(headerABIVersion), "
                + "or set PAYWIRE_LIBRARY to its path", tried: tried)
    }

    /// Copies a string the library returned and releases it with paywire_string_free; nil for NULL.
    package func take(_ pointer: UnsafeMutablePointer<CChar>?) -> [UInt8]? {
        guard let pointer else { return nil }
        defer { stringFree(pointer) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
    }

    /// The name of a status (`"INVALID_UTF8"` for -3); static storage in the library.
    package func name(of status: Int32) -> String {
        statusName(status).map { String(cString: $0) } ?? "UNKNOWN"
    }
}

/// libpaywire could not be found, did not load, or was built for another ABI or a wire schema this
/// binding cannot read (`status` `VERSION_MISMATCH`).
public struct PaywireLibraryError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with what to do about it.
    public let message: String
    /// Each place looked at, and why it did not do.
    public let tried: [String]
    /// `VERSION_MISMATCH` when the library's wire schema has another MAJOR or an older MINOR than
    /// this binding's (``PaywireSchema/version``); nil when it could not be found or loaded.
    public var status: String? = nil
    /// The library's schema MAJOR.MINOR, when it was refused for it (nil: it said none).
    public var libraryVersion: String? = nil
    /// This binding's schema MAJOR.MINOR, when the library was refused for its version.
    public var bindingVersion: String? = nil

    public var description: String {
        tried.isEmpty ? message : "\(message). Tried: \(tried.joined(separator: "; "))"
    }
}
