import Foundation

/// Reading and writing whole files with the exit codes users script against.
enum Files {
    /// The bytes of `path`. - Throws: exit 66 when it is missing or unreadable.
    static func read(_ path: String) throws(CommandError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw CommandError(.inputMissing, "\(path): \(reason)")
        }
        return [UInt8](data)
    }

    /// Replaces `path` with `text`. - Throws: exit 74 when it cannot be written.
    static func write(_ text: String, to path: String) throws(CommandError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError(.outputFailed, "\(path): cannot be written (\(error.localizedDescription))")
        }
    }
}
