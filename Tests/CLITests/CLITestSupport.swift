import Foundation
import Synchronization
import TestSupport
import Testing
@testable import location_router

/// Runs the command in-process and captures what it prints.
struct CapturedRun {
    var status: ExitCode
    var out: String
    var err: String
}

final class CapturedOutput: Sendable {
    let out = Mutex("")
    let err = Mutex("")

    var console: Console {
        Console(out: { text in self.out.withLock { $0 += text } }, err: { text in self.err.withLock { $0 += text } }, errIsTerminal: false)
    }
}

/// Runs the command in `workingDirectory`, or by default in a folder of its own, removed afterwards: what the
/// command writes by a relative path (its default outputs) never lands in the system's temporary directory.
func runCommand(_ arguments: [String], workingDirectory: String? = nil) async -> CapturedRun {
    let folder = workingDirectory ?? scratchFolder()
    defer { if workingDirectory == nil { try? FileManager.default.removeItem(atPath: folder) } }
    let output = CapturedOutput()
    let status = await CommandLineTool.run(arguments, console: output.console, workingDirectory: folder)
    return CapturedRun(status: status, out: output.out.withLock { $0 }, err: output.err.withLock { $0 })
}

/// A ``temporaryDirectory()`` for a helper that cannot throw: a machine that cannot make one cannot run the suite.
private func scratchFolder() -> String {
    do { return try temporaryDirectory() } catch { fatalError("no temporary folder: \(error)") }
}

/// A fixture file's path.
func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")?.path ?? "missing-fixture-\(name)"
}

/// The project's root folder (for the shipped config.json).
let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The built `location-router` executable, beside the test bundle.
func executablePath() throws -> String {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("location-router")
    let candidates = [binary.path] + ((try? FileManager.default.contentsOfDirectory(atPath: binary.deletingLastPathComponent().path)) ?? [])
        .map { binary.deletingLastPathComponent().appendingPathComponent($0).appendingPathComponent("location-router").path }
    guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: binary.path])
    }
    return path
}

/// The built `location-router` executable with `arguments`, to be run in `directory` (its standard streams are the
/// caller's to set).
func executableProcess(_ arguments: [String], in directory: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try executablePath())
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    return process
}

/// Runs the built `location-router` executable with `stdin` as its standard input.
func runExecutable(_ arguments: [String], stdin: String) throws -> (status: Int32, out: String, err: String) {
    // Away from the project folder, so that its config.json does not apply, in a folder removed afterwards.
    let folder = scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let process = try executableProcess(arguments, in: folder)
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Standard input is written, and standard error read, on threads of their own while standard output is read
    // here: a child that fills one pipe while the test waits on another would hang otherwise.
    let err = PipeReading()
    let pipes = DispatchGroup()
    // A child that exits before reading all its input (a fatal input error) closes the pipe: the write then fails
    // with EPIPE instead of killing the test process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    DispatchQueue.global().async(group: pipes) { [writer = input.fileHandleForWriting] in
        try? writer.write(contentsOf: Data(stdin.utf8))
        try? writer.close()
    }
    DispatchQueue.global().async(group: pipes) { [reader = error.fileHandleForReading] in
        err.data.withLock { $0 = reader.readDataToEndOfFile() }
    }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    pipes.wait()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), err.data.withLock { String(decoding: $0, as: UTF8.self) })
}

/// What a thread read from a pipe, handed to the test's thread.
private final class PipeReading: Sendable {
    let data = Mutex(Data())
}

/// Starts `process` and waits for it to end without holding a thread of the shared pool (other suites' servers
/// and tasks need those); `whileRunning` runs once it has started (to signal or kill it).
func runToExit(_ process: Process, whileRunning: (Process) async throws -> Void = { _ in }) async throws {
    let exited = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in
        exited.continuation.yield()
        exited.continuation.finish()
    }
    try process.run()
    try await whileRunning(process)
    for await _ in exited.stream { break }
}
