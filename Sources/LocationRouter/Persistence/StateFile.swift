import Foundation
import GeofenceKit

/// Reading and writing snapshot files: atomically, so a crash never leaves half a snapshot behind.
public enum StateFile {
    /// Writes `snapshot` to `path` through ``OutputFile``: a regular file is replaced atomically (flushed, then
    /// renamed over the old one); a device or FIFO is written in place, never replaced.
    public static func write(_ snapshot: StateSnapshot, to path: String) throws {
        do {
            try OutputFile.write(snapshot.encoded(), to: path)
        } catch {
            throw SinkError(destination: error.path, message: error.message)
        }
    }

    /// The snapshot at `path`, or `nil` when there is no file yet (a first run).
    /// - Throws: ``InputError`` (attributed to the file) when it is corrupt, truncated or incompatible.
    public static func read(_ path: String) throws -> StateSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputReadError.unreadable(path)
        }
        do {
            return try StateSnapshot.decode([UInt8](data))
        } catch {
            throw error.in(file: path)
        }
    }
}
