import Foundation

/// `location-router-bench`: runs the benchmark suite and prints a table (or `--json`).
let exitStatus = await BenchmarkCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(exitStatus)
