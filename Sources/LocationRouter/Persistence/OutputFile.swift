import Foundation

/// Writing a whole output (report, state snapshot, HTML page) without ever damaging what the path names.
///
/// - A regular file, or a path where nothing exists yet, is **replaced atomically**: the bytes go to a temporary
///   file in the same directory, which is flushed (`fsync`) and renamed over the path, and the directory is
///   flushed too; a crash leaves either the old file or the new one, never half of either.
/// - A symbolic link is followed: its final target is written as above, and the link stays a link.
/// - Anything else — a character device such as `/dev/null` or `/dev/stdout`, a FIFO, a socket, a terminal,
///   `/proc/self/fd/N` naming a pipe — is **written in place** and never replaced or truncated.
public enum OutputFile {
    /// How a path will be written.
    public enum Kind: Sendable, Equatable {
        /// A regular file or a new path: replaced atomically at `target` (the path with every link resolved).
        case replace(target: String)
        /// A device, FIFO or socket: opened and written in place.
        case inPlace
    }

    /// Decides how `path` will be written, without touching it.
    /// - Throws: ``OutputError`` when the path is a directory, its directory does not exist or a link cannot be
    ///   resolved.
    public static func kind(of path: String) throws(OutputError) -> Kind {
        var status = stat()
        if stat(path, &status) == 0 {
            // Root may write into a directory, and no file can take its place: said before a run, not after it.
            if (status.st_mode & S_IFMT) == S_IFDIR { throw OutputError(path: path, message: "is a directory") }
            if (status.st_mode & S_IFMT) != S_IFREG { return .inPlace }
            return .replace(target: resolved(path))
        }
        let reason = errno
        var linkStatus = stat()
        if lstat(path, &linkStatus) == 0 {
            // A link whose target does not exist (or a loop): write the target when it can be named.
            if reason == ELOOP { throw OutputError(path: path, message: "too many levels of symbolic links") }
            guard let target = danglingTarget(path) else {
                throw OutputError(path: path, message: "the symbolic link cannot be resolved")
            }
            return try kind(of: target)
        }
        guard reason == ENOENT else { throw OutputError(path: path, message: String(cString: strerror(reason))) }
        let directory = directoryOf(path)
        var directoryStatus = stat()
        guard stat(directory, &directoryStatus) == 0, (directoryStatus.st_mode & S_IFMT) == S_IFDIR else {
            throw OutputError(path: path, message: "its directory \(directory) does not exist")
        }
        return .replace(target: path)
    }

    /// Checks, before a run, that `path` can be written when the run ends: its directory is writable (for a
    /// replaced file) or the path itself is (for a device or FIFO, which is not opened here).
    public static func checkWritable(_ path: String) throws(OutputError) {
        switch try kind(of: path) {
        case .replace(let target):
            let directory = directoryOf(target)
            guard access(directory, W_OK | X_OK) == 0 else {
                throw OutputError(path: path, message: "cannot be written (directory \(directory): \(String(cString: strerror(errno))))")
            }
            var status = stat()
            if stat(target, &status) == 0, access(target, W_OK) != 0 {
                throw OutputError(path: path, message: "cannot be written (\(String(cString: strerror(errno))))")
            }
        case .inPlace:
            guard access(path, W_OK) == 0 else {
                throw OutputError(path: path, message: "cannot be written (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Writes `bytes` to `path` as described on ``OutputFile``.
    public static func write(_ bytes: [UInt8], to path: String) throws(OutputError) {
        try write(to: path) { emit in bytes.withUnsafeBytes(emit) }
    }

    /// Writes `text` (UTF-8) to `path`.
    public static func write(_ text: String, to path: String) throws(OutputError) {
        try write(Array(text.utf8), to: path)
    }

    /// Writes to `path`, as described on ``OutputFile``, the bytes `body` emits, chunk by chunk: an output of a
    /// gigabyte (the state snapshot of a million devices) need not be held in memory at once. After a failed
    /// write the rest is not written (and a replaced file is left as it was); the error is thrown once `body`
    /// returns.
    public static func write(
        to path: String, _ body: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(OutputError) {
        switch try kind(of: path) {
        case .inPlace: try writeInPlace(to: path, body)
        case .replace(let target): try replace(target, namedAs: path, body)
        }
    }

    private static func writeInPlace(
        to path: String, _ body: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw OutputError(path: path, message: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        if let failure = writeEmitted(body, to: descriptor) { throw OutputError(path: path, message: failure) }
    }

    private static func replace(
        _ target: String, namedAs path: String, _ body: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(OutputError) {
        let directory = directoryOf(target)
        let name = (target as NSString).lastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(UUID().uuidString)")
        var mode: mode_t = 0o644
        var existing = stat()
        if stat(target, &existing) == 0 { mode = existing.st_mode & 0o7777 }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw OutputError(path: path, message: "cannot be written (\(String(cString: strerror(errno))))")
        }
        var failure = writeEmitted(body, to: descriptor)
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw OutputError(path: path, message: "cannot be written (\(failure))")
        }
        syncDirectory(directory)
    }

    /// Writes every chunk `body` emits to a descriptor, none after the first that fails; that error's text, or
    /// `nil`.
    private static func writeEmitted(
        _ body: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void, to descriptor: Int32
    ) -> String? {
        var failure: String?
        body { chunk in
            if failure == nil { failure = writeAll(chunk, to: descriptor) }
        }
        return failure
    }

    /// Writes every byte to a descriptor, retrying partial writes and interruptions; the error text, or `nil`.
    /// (Every writer of whole buffers — outputs, the events file, dead letters — goes through it.)
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// ``writeAll(_:to:)`` of the bytes `buffer` holds.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
        var offset = 0
        while offset < buffer.count {
            let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }

    /// Makes a rename or a file's creation in `directory` durable.
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func directoryOf(_ path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// `path` with every symbolic link resolved (the path itself when that fails).
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// The path a dangling symbolic link points to, relative targets taken from the link's directory.
    private static func danglingTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") ? target : (directoryOf(path) as NSString).appendingPathComponent(target)
    }
}

/// An output path that cannot be written; the CLI exits 74 (or 64 when found before the run).
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
