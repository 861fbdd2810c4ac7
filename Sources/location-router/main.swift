import Foundation
import GeofenceFormats

// This process exits right after its command: what a run built is left for the exit to reclaim.
KeptUntilExit.enable()
let status = await CommandLineTool.run(
    Array(CommandLine.arguments.dropFirst()), console: .standard,
    workingDirectory: FileManager.default.currentDirectoryPath)
exit(status.rawValue)
