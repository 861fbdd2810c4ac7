import Foundation
import LocationRouter

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

    /// Writes `text` to `path` (`-`: standard output) through ``OutputFile``: a regular file is replaced
    /// atomically, a device or FIFO written in place. - Throws: exit 74 when it cannot be written.
    static func write(_ text: String, to path: String, console: Console) throws(CommandError) {
        if path == "-" {
            console.out(text.hasSuffix("\n") ? text : text + "\n")
            return
        }
        do {
            try OutputFile.write(text, to: path)
        } catch {
            throw CommandError(.outputFailed, error.description)
        }
    }
}
