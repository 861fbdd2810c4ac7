import Foundation
import Testing

/// The executable leaves FoundationNetworking (libcurl, OpenSSL and some 25 more libraries) to the library it
/// loads when a URL needs https, so that every other run starts without loading them.
@Suite struct HTTPSLibraryTests {
    @Test func theExecutableDoesNotLinkFoundationNetworking() throws {
        let executable = try Data(contentsOf: URL(fileURLWithPath: try executablePath()))
        // A linked library's file name is among the executable's dynamic strings.
        #expect(
            executable.range(of: Data("libFoundationNetworking".utf8)) == nil,
            "a build directory from before the https library keeps objects that link it: build afresh (rm -rf .build)")
    }

    @Test func theHTTPSLibraryIsBuiltBesideTheExecutable() throws {
        let folder = URL(fileURLWithPath: try executablePath()).deletingLastPathComponent()
        #if canImport(Darwin)
        let name = "libLocationRouterHTTPS.dylib"
        #else
        let name = "libLocationRouterHTTPS.so"
        #endif
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path))
    }
}
