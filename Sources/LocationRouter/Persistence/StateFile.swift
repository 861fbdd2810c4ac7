import Foundation
import GeofenceKit

/// Reading and writing snapshot files: atomically, so a crash never leaves half a snapshot behind.
public enum StateFile {
    /// Writes `snapshot` to `path` through ``OutputFile``: a regular file is replaced atomically (flushed, then
    /// renamed over the old one); a device or FIFO is written in place, never replaced.
    public static func write(_ snapshot: StateSnapshot, to path: String) throws {
        try write(
            profile: snapshot.profile, seed: snapshot.seed, partition: snapshot.partition, events: snapshot.events,
            count: snapshot.saved.count, device: { [saved = snapshot.saved] in saved[$0] }, to: path)
    }

    /// Writes the snapshot of `count` devices, `device(k)` the k-th (the other fields are ``StateSnapshot``'s), to
    /// `path` as ``write(_:to:)`` does, the devices made and encoded a part at a time as the file is written: a
    /// snapshot of a million devices (a gigabyte) is never held whole.
    static func write(
        profile: String, seed: UInt64?, partition: Partition?, events: StateSnapshot.EventsFile?, count: Int,
        device: @escaping @Sendable (Int) -> StateSnapshot.Device, to path: String
    ) throws {
        do {
            try OutputFile.write(to: path) { emit in
                StateSnapshot.encode(
                    profile: profile, seed: seed, partition: partition, events: events, count: count, device: device,
                    emit: emit)
            }
        } catch {
            throw SinkError(destination: error.path, message: error.message)
        }
    }

    /// The snapshot at `path`, or `nil` when there is no file yet (a first run).
    /// - Throws: ``InputError`` (attributed to the file) when it is corrupt, truncated or incompatible.
    public static func read(_ path: String) throws -> StateSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // Read straight into one array, sized once (through `Data`, a snapshot of a gigabyte was held twice).
        let reader = try ChunkedFileReader(path: path)
        var bytes: [UInt8] = []
        if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int { bytes.reserveCapacity(size) }
        while let chunk = try reader.next() { bytes.append(contentsOf: chunk) }
        do {
            return try StateSnapshot.decode(bytes)
        } catch {
            throw error.in(file: path)
        }
    }
}
