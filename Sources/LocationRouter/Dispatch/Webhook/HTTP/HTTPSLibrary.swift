import Foundation

/// The library that sends `https://` requests (the `LocationRouterHTTPS` product, built beside the executables),
/// loaded at run time the first time a URL needs it.
///
/// TLS is only available through the toolchain's FoundationNetworking, which loads libcurl, OpenSSL, Kerberos,
/// LDAP and some 25 more libraries: about 8 ms of CPU at the start of every run when the executable links it,
/// though only `https` webhooks and `--target` use it. Loaded this way, only those runs pay it.
struct HTTPSLibrary: @unchecked Sendable {
    typealias Completion = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void

    let sessionStart: @convention(c) (Double, Int, Bool) -> UnsafeMutableRawPointer
    let post: @convention(c) (
        UnsafeMutableRawPointer, UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<UInt8>?, Int, Double,
        UnsafeMutableRawPointer?, Completion
    ) -> UnsafeMutableRawPointer?
    let cancel: @convention(c) (UnsafeMutableRawPointer) -> Void
    let release: @convention(c) (UnsafeMutableRawPointer) -> Void
    let sessionEnd: @convention(c) (UnsafeMutableRawPointer, Bool) -> Void

    /// The library, or why it cannot be loaded.
    static let shared: Result<HTTPSLibrary, HTTPSLibraryError> = load()

    /// The file name: the same folder as the executable is searched first, then the loader's usual places.
    static let fileName: String = {
        #if canImport(Darwin)
        return "libLocationRouterHTTPS.dylib"
        #else
        return "libLocationRouterHTTPS.so"
        #endif
    }()

    private static func load() -> Result<HTTPSLibrary, HTTPSLibraryError> {
        var candidates: [String] = []
        if let executable = Bundle.main.executablePath {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(fileName).path)
        }
        candidates.append(fileName)
        var reasons: [String] = []
        for path in candidates {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? path)
                continue
            }
            func symbol<T>(_ name: String, as type: T.Type) -> T? {
                dlsym(handle, name).map { unsafeBitCast($0, to: type) }
            }
            guard
                let sessionStart = symbol("location_router_https_session_start", as: (@convention(c) (Double, Int, Bool) -> UnsafeMutableRawPointer).self),
                let post = symbol("location_router_https_post", as: (@convention(c) (
                    UnsafeMutableRawPointer, UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<UInt8>?, Int,
                    Double, UnsafeMutableRawPointer?, Completion) -> UnsafeMutableRawPointer?).self),
                let cancel = symbol("location_router_https_cancel", as: (@convention(c) (UnsafeMutableRawPointer) -> Void).self),
                let release = symbol("location_router_https_release", as: (@convention(c) (UnsafeMutableRawPointer) -> Void).self),
                let sessionEnd = symbol("location_router_https_session_end", as: (@convention(c) (UnsafeMutableRawPointer, Bool) -> Void).self)
            else {
                reasons.append("\(path): not the library of this version (an entry point is missing)")
                continue
            }
            return .success(
                HTTPSLibrary(sessionStart: sessionStart, post: post, cancel: cancel, release: release, sessionEnd: sessionEnd))
        }
        return .failure(HTTPSLibraryError(reasons: reasons))
    }
}

/// Why https is not available: the library was not found (or not loadable) in any place searched.
struct HTTPSLibraryError: Error, CustomStringConvertible {
    let reasons: [String]

    var description: String {
        "https needs \(HTTPSLibrary.fileName) in the folder of the executable, which `swift build` builds there "
            + "(`swift build -c release` for a release executable; `swift run` builds the executable alone): "
            + reasons.joined(separator: "; ")
    }
}
