import Foundation
import GeofenceKit

/// Reading and writing snapshot files: atomically, so a crash never leaves half a snapshot behind.
public enum StateFile {
    /// Writes `snapshot` to a temporary file beside `path`, flushes it to disk, and renames it over `path`.
    public static func write(_ snapshot: StateSnapshot, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SinkError(destination: temporary, message: String(cString: strerror(errno))) }
        var failure: String?
        let bytes = snapshot.encoded()
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count && failure == nil {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno != EINTR { failure = String(cString: strerror(errno)) }
                if written > 0 { offset += written }
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw SinkError(destination: path, message: failure)
        }
        // Make the rename itself durable.
        let directory = open((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, O_RDONLY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// The snapshot at `path`, or `nil` when there is no file yet (a first run).
    /// - Throws: ``InputError`` (attributed to the file) when it is corrupt, truncated or incompatible.
    public static func read(_ path: String) throws -> StateSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputReadError(name: path, message: "cannot be read")
        }
        do {
            return try StateSnapshot.decode([UInt8](data))
        } catch {
            throw error.in(file: path)
        }
    }
}
