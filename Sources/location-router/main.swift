import Foundation

let status = await CommandLineTool.run(
    Array(CommandLine.arguments.dropFirst()), console: .standard,
    workingDirectory: FileManager.default.currentDirectoryPath)
exit(status.rawValue)
