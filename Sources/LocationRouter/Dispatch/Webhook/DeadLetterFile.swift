import Foundation
import Synchronization

/// The NDJSON file undeliverable events are appended to, one original event line per line.
///
/// It is opened on the first append (so a run that delivers everything creates no file) in append mode (so
/// several runs, or a replay tool that truncates it, never lose earlier lines), and appends are serialized
/// so that concurrent workers never interleave their lines. Opening and writing happen on a ``WriterThread`` of
/// the file's own, so a worker waiting for the disk holds no thread of the cooperative pool.
final class DeadLetterFile: Sendable {
    let path: String
    /// The open descriptor, or -1 before the first append and after ``close()``.
    private let descriptor = Mutex<Int32>(-1)
    private let writer = WriterThread(name: "location-router dead-letter writer")

    init(path: String) {
        self.path = path
    }

    /// Appends `lines` (whole NDJSON lines, each with its newline).
    /// - Throws: ``SinkError`` naming the file when it cannot be opened or written.
    func append(_ lines: [UInt8]) async throws {
        try await writer.perform { Result { try self.appendNow(lines) } }.get()
    }

    private func appendNow(_ lines: [UInt8]) throws(SinkError) {
        try descriptor.withLock { (descriptor: inout Int32) throws(SinkError) in
            if descriptor < 0 {
                descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { throw failure() }
            }
            if let message = OutputFile.writeAll(lines, to: descriptor) { throw SinkError(destination: path, message: message) }
        }
    }

    /// Closes the file if it was opened; a later append reopens it.
    func close() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { _ = Foundation.close(descriptor) }
            descriptor = -1
        }
    }

    private func failure() -> SinkError {
        SinkError(destination: path, message: String(cString: strerror(errno)))
    }
}
