import Foundation
import Synchronization

/// Where the dispatcher hands encoded events: NDJSON bytes, whole lines only.
///
/// `write` may suspend for as long as the destination needs; the dispatcher returns no credit meanwhile, so a
/// slow sink slows the whole pipeline down instead of growing a queue.
public protocol EventSink: Sendable {
    /// Hands over whole lines; when it returns, the sink has accepted them (written to the file descriptor,
    /// or queued for a webhook that delivers or dead-letters each one).
    func write(_ bytes: [UInt8]) async throws
    /// Flushes and releases the destination; called once, after the last write.
    func close() async throws
    /// Makes every byte written so far durable and returns how many bytes the events file holds, for a state
    /// snapshot to record; `nil` when the sink has no such file (standard output, a webhook).
    func checkpoint() async throws -> Int64?
    /// Does the sink's background work (a webhook's delivery workers and timers) and returns once the sink is
    /// closed and drained; a sink with none returns at once. Whoever writes to the sink runs this as a child
    /// task beside the writers, as swift-service-lifecycle runs a service: ``Simulation`` runs it beside the
    /// pipeline's stages, and `close()` waits for it.
    func run() async
}

extension EventSink {
    public func checkpoint() async throws -> Int64? { nil }
    public func run() async {}
}

/// An error writing events, naming the destination: the CLI exits 74 on it.
public struct SinkError: Error, Sendable, CustomStringConvertible {
    public var destination: String
    public var message: String

    public var description: String { "\(destination): \(message)" }
}

/// Writes events to a file descriptor (standard output or a file), retrying partial writes.
///
/// The blocking calls (`write`, `fsync`, `close`) run on a ``WriterThread`` of the sink's own; a write returns
/// once the bytes are written, as before, without blocking a thread of the cooperative pool.
///
/// A regular file is created or truncated; a device or FIFO is opened as it is (never truncated), and
/// ``init(path:resumingAt:)`` keeps the first `offset` bytes of an earlier run's file and appends after them.
public final class FileDescriptorSink: EventSink {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    private let name: String
    /// Whether the descriptor is a regular file, whose size ``checkpoint()`` reports.
    private let isRegularFile: Bool
    private let written: Atomic<Int64>
    private let writer = WriterThread(name: "location-router events writer")

    /// Writes to standard output, named `stdout` in errors.
    public static var standardOutput: FileDescriptorSink {
        FileDescriptorSink(descriptor: STDOUT_FILENO, closesDescriptor: false, name: "stdout", isRegularFile: false, offset: 0)
    }

    /// Creates (or truncates) the file at `path` for writing; a device or FIFO is written as it is.
    public convenience init(path: String) throws {
        try self.init(path: path, resumingAt: nil)
    }

    /// Opens `path` for writing. With `offset`, the file must hold at least that many bytes (an earlier run's
    /// events): it is cut there (a torn last line or events past a snapshot go) and written after it.
    /// - Throws: ``SinkError`` when the file cannot be opened, or is shorter than `offset`.
    public init(path: String, resumingAt offset: Int64?) throws {
        var status = stat()
        let exists = stat(path, &status) == 0
        let regular = !exists || (status.st_mode & S_IFMT) == S_IFREG
        let flags = O_WRONLY | O_CLOEXEC | (regular ? O_CREAT : 0) | (regular && offset == nil ? O_TRUNC : 0)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            throw SinkError(destination: path, message: String(cString: strerror(errno)))
        }
        if regular, let offset {
            let size = lseek(descriptor, 0, SEEK_END)
            guard size >= offset else {
                Foundation.close(descriptor)
                throw SinkError(
                    destination: path,
                    message: "holds \(size) bytes, fewer than the \(offset) the state snapshot says were written: "
                        + "it is not the events file of the run being continued")
            }
            guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
                let message = String(cString: strerror(errno))
                Foundation.close(descriptor)
                throw SinkError(destination: path, message: message)
            }
        }
        self.descriptor = descriptor
        closesDescriptor = true
        name = path
        isRegularFile = regular
        written = Atomic(regular ? offset ?? 0 : 0)
    }

    private init(descriptor: Int32, closesDescriptor: Bool, name: String, isRegularFile: Bool, offset: Int64) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        self.name = name
        self.isRegularFile = isRegularFile
        written = Atomic(offset)
    }

    public func checkpoint() async throws -> Int64? {
        guard isRegularFile else { return nil }
        let descriptor = descriptor
        if let failure = await writer.perform({ fsync(descriptor) != 0 ? String(cString: strerror(errno)) : nil }) {
            throw SinkError(destination: name, message: failure)
        }
        return written.load(ordering: .acquiring)
    }

    public func write(_ bytes: [UInt8]) async throws {
        let descriptor = descriptor
        if let failure = await writer.perform({ OutputFile.writeAll(bytes, to: descriptor) }) {
            throw SinkError(destination: name, message: failure)
        }
        written.add(Int64(bytes.count), ordering: .releasing)
    }

    public func close() async throws {
        defer { writer.finish() }
        guard closesDescriptor else { return }
        let descriptor = descriptor
        if let failure = await writer.perform({ Foundation.close(descriptor) != 0 ? String(cString: strerror(errno)) : nil }) {
            throw SinkError(destination: name, message: failure)
        }
    }
}
