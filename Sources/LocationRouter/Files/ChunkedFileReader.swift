import Foundation

/// A file or descriptor read front to back in chunks of bounded size, for inputs too large to read whole (a GPX
/// recording or a sample file of hundreds of megabytes).
///
/// Every streamed input goes through it: `check`, GPX playback (``GPXTraceFile``), the truth walk over a sample
/// file, and the reader thread of a sample stream. Reads are blocking; a caller on the cooperative pool runs it on
/// a thread of its own. A reader opened from a path closes the file when released; one given a descriptor leaves
/// it open.
public final class ChunkedFileReader {
    /// The path, or the name the descriptor is known by in messages (`stdin`).
    public let name: String
    public let chunkSize: Int
    private let descriptor: Int32
    /// The path to explain a failed read with (``InputReadError/unreadable(_:)``), when the reader opened one.
    private let path: String?

    /// Opens `path` for reading.
    /// - Throws: ``InputReadError`` saying why it cannot be read ("no such file", "it is a directory", …).
    public init(path: String, chunkSize: Int = 1 << 20) throws(InputReadError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputReadError.unreadable(path) }
        self.descriptor = descriptor
        self.path = path
        name = path
        self.chunkSize = max(1, chunkSize)
    }

    /// Reads an open descriptor (standard input, a pipe), which stays open when the reader is released.
    public init(descriptor: Int32, name: String, chunkSize: Int = 1 << 20) {
        self.descriptor = descriptor
        self.name = name
        path = nil
        self.chunkSize = max(1, chunkSize)
    }

    deinit {
        if path != nil { close(descriptor) }
    }

    /// The next chunk (at most ``chunkSize`` bytes), or `nil` at the end of the input.
    /// - Throws: ``InputReadError`` when a read fails (a folder given as a file, an I/O error).
    public func next() throws(InputReadError) -> [UInt8]? {
        while true {
            var failure: Int32 = 0
            // Read into uninitialised memory: zeroing a chunk only to overwrite it costs as much as the read.
            let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, initialized in
                let count = read(descriptor, buffer.baseAddress, chunkSize)
                initialized = max(count, 0)
                if count < 0 { failure = errno }
            }
            if failure == EINTR { continue }
            if failure != 0 {
                if let path { throw InputReadError.unreadable(path) }
                throw InputReadError(name: name, message: String(cString: strerror(failure)))
            }
            return chunk.isEmpty ? nil : chunk
        }
    }
}
