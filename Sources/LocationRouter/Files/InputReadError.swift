import Foundation

/// An input that could not be read (the CLI exits 66): `name: message`.
public struct InputReadError: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    /// Why `path` cannot be read: "no such file", "cannot be read (it is a directory)", "cannot be read
    /// (permission denied)", … — the one wording of every command for a missing or unreadable input.
    public static func unreadable(_ path: String) -> InputReadError {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        let code = descriptor >= 0 ? 0 : errno
        var status = stat()
        let isDirectory = descriptor >= 0 && fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        if descriptor >= 0 { close(descriptor) }
        let reason: String
        switch code {
        case ENOENT: reason = "no such file"
        case 0: reason = isDirectory ? "cannot be read (it is a directory)" : "cannot be read"
        default: reason = "cannot be read (\(String(cString: strerror(code)).lowercased()))"
        }
        return InputReadError(name: path, message: reason)
    }
}
