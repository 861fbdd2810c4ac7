import Foundation

/// A file read front to back in chunks of bounded size, for inputs too large to read whole (a GPX file of
/// hundreds of megabytes). Closes the file when released.
final class FileChunks {
    let path: String
    let chunkSize: Int
    private let descriptor: Int32

    /// Opens `path`. - Throws: exit 66 when it is missing or cannot be opened, as ``Files/read(_:)`` does.
    init(path: String, chunkSize: Int = 1 << 20) throws(CommandError) {
        self.path = path
        self.chunkSize = max(1, chunkSize)
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Self.unreadable(path) }
    }

    deinit { close(descriptor) }

    /// The next chunk, or `nil` at the end of the file.
    /// - Throws: exit 66 when the file cannot be read (a folder, an I/O error).
    func next() throws(CommandError) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.unreadable(path)
            }
            if count == 0 { return nil }
            chunk.removeSubrange(count...)
            return chunk
        }
    }

    private static func unreadable(_ path: String) -> CommandError {
        Files.unreadable(path)
    }
}
