import Foundation

/// Where the dispatcher hands encoded events: NDJSON bytes, whole lines only.
///
/// `write` may suspend for as long as the destination needs; the dispatcher returns no credit meanwhile, so a
/// slow sink slows the whole pipeline down instead of growing a queue.
public protocol EventSink: Sendable {
    func write(_ bytes: [UInt8]) async throws
    /// Flushes and releases the destination; called once, after the last write.
    func close() async throws
}

/// An error writing events, naming the destination: the CLI exits 74 on it.
public struct SinkError: Error, Sendable, CustomStringConvertible {
    public var destination: String
    public var message: String

    public var description: String { "\(destination): \(message)" }
}

/// Writes events to a file descriptor (standard output or a file), retrying partial writes.
public struct FileDescriptorSink: EventSink {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    private let name: String

    /// Writes to standard output, named `stdout` in errors.
    public static var standardOutput: FileDescriptorSink {
        FileDescriptorSink(descriptor: STDOUT_FILENO, closesDescriptor: false, name: "stdout")
    }

    /// Creates (or truncates) the file at `path` for writing.
    public init(path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SinkError(destination: path, message: String(cString: strerror(errno)))
        }
        self.init(descriptor: descriptor, closesDescriptor: true, name: path)
    }

    private init(descriptor: Int32, closesDescriptor: Bool, name: String) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        self.name = name
    }

    public func write(_ bytes: [UInt8]) async throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw SinkError(destination: name, message: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }

    public func close() async throws {
        guard closesDescriptor else { return }
        if Foundation.close(descriptor) != 0 {
            throw SinkError(destination: name, message: String(cString: strerror(errno)))
        }
    }
}
