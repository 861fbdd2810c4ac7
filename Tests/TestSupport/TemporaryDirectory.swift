import Foundation

/// A fresh folder of its own in the system's temporary directory, for one test's files; the test removes it
/// (`defer { try? FileManager.default.removeItem(atPath: folder) }`), so that no run leaves files behind.
public func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "location-router-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
