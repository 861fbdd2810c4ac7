import Foundation
import LocationRouter

/// Every file a command will write, checked before it starts: each is writable, no two name the same file, and none
/// is a file the command reads.
///
/// A run that would write its events over its own report, or its state over its events, is refused before it
/// reads anything (exit 64, naming both options); so is a path that cannot be written, instead of failing after
/// the whole run, and an output that would replace an input (`merge r0.json r1.json --report r0.json`, the events
/// over the regions file). Character devices (`/dev/null`) may be shared: nothing is kept there.
struct OutputPaths {
    struct Output {
        var option: String
        var path: String
    }

    var outputs: [Output] = []
    /// The files the command reads (standard input, `-`, aside), named as ``Output``s are.
    var inputs: [Output] = []

    mutating func add(_ option: String, _ path: String?) {
        guard let path else { return }
        outputs.append(Output(option: option, path: path))
    }

    mutating func addInput(_ name: String, _ path: String?) {
        guard let path, path != "-" else { return }
        inputs.append(Output(option: name, path: path))
    }

    /// - Throws: exit 64 for two outputs on the same file, both on standard output, an output on an input, or an
    ///   unwritable path.
    func check() throws(CommandError) {
        // Each file's identity taken once, for both comparisons.
        let files = outputs.filter { $0.path != "-" }.map { (output: $0, identity: Self.identity(of: $0.path)) }
        let read = inputs.compactMap { input in Self.identity(of: input.path).map { (input, $0) } }
        for (output, identity) in files {
            guard let identity, let (input, _) = read.first(where: { $0.1 == identity }) else { continue }
            throw .usage(
                "\(output.option) \(output.path) is \(input.option) \(input.path), which this command reads: "
                    + "each output needs a file of its own")
        }
        let toStandardOutput = outputs.filter { $0.path == "-" }
        if toStandardOutput.count > 1 {
            throw .usage("\(toStandardOutput[0].option) and \(toStandardOutput[1].option) both write to standard output ('-')")
        }
        var seen: [(output: Output, identity: String)] = []
        for (output, identity) in files {
            do {
                try OutputFile.checkWritable(output.path)
            } catch {
                throw .usage("\(output.option) \(error.description)")
            }
            guard let identity else { continue }
            if let same = seen.first(where: { $0.identity == identity }) {
                throw .usage(
                    "\(same.output.option) \(same.output.path) and \(output.option) \(output.path) are the same file: "
                        + "each output needs a file of its own")
            }
            seen.append((output, identity))
        }
    }

    /// What makes two paths the same file: its device and inode when it exists, else its resolved path; `nil` for
    /// a character device, which any number of outputs may share.
    static func identity(of path: String) -> String? {
        var status = stat()
        if stat(path, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFCHR { return nil }
            return "\(status.st_dev):\(status.st_ino)"
        }
        return resolvedPath(path)
    }

    /// `path` made absolute with its directory's links resolved (the file itself need not exist).
    static func resolvedPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let directory = (absolute as NSString).deletingLastPathComponent
        let name = (absolute as NSString).lastPathComponent
        guard let real = realpath(directory, nil) else { return absolute }
        defer { free(real) }
        return (String(cString: real) as NSString).appendingPathComponent(name)
    }

    /// The events file as a snapshot records it (resolved, links followed), so a restart can recognise it.
    static func recordedEventsPath(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return resolvedPath(path) }
        defer { free(real) }
        return String(cString: real)
    }
}
