import Foundation
import GeofenceFormats

// This process exits right after its command: what a run built is left for the exit to reclaim.
KeptUntilExit.enable()
// A reader that closes its end of a pipe or FIFO (`--events - | head -1`) makes the next write fail with EPIPE
// instead of killing the process: the events sink reports the failure (`sinkFailure`, exit 74) and the report is
// written, as for any sink that stops taking bytes.
signal(SIGPIPE, SIG_IGN)
let status = await CommandLineTool.run(
    Array(CommandLine.arguments.dropFirst()), console: .standard,
    workingDirectory: FileManager.default.currentDirectoryPath)
exit(status.rawValue)
