import Foundation
import Testing

@testable import GeofenceFormats
import GeofenceKit

extension DecoderMutationTests {
    // MARK: The driver

    /// How many inputs (or lines) a decoder accepted and rejected: both must occur, or the mutations are too
    /// weak (everything still valid) or too strong (everything broken at the first byte) to test anything.
    struct Tally {
        var accepted = 0
        var rejected = 0
    }

    struct Run {
        var failures: [String] = []
        var tally = Tally()
    }

    /// Mutates the bases (in turn) `count` times and passes each result to `check`, which returns a problem or
    /// `nil`. Each failure names the suite, seed and mutation index.
    static func run(
        suite: UInt64, count: Int, bases: [[UInt8]], check: ([UInt8], inout SplitMix64, inout Tally) -> String?
    ) -> Run {
        var run = Run()
        for index in 0..<(count * scale) {
            var random = SplitMix64(seed: seed, stream: UInt64(index), purpose: suite)
            let mutated = Mutator.mutate(bases[index % bases.count], donors: inputs, random: &random)
            let label = "suite \(suite), seed \(seed), mutation \(index)"
            if trace { print("\(label): \(Mutator.describe(mutated))") }
            let start = threadCPUTime()
            let problem = check(mutated, &random, &run.tally)
            let elapsed = threadCPUTime() - start
            if let problem { run.failures.append("\(label): \(problem)\n  input: \(Mutator.describe(mutated))") }
            if elapsed > slowDecode {
                run.failures.append("\(label): took \(elapsed) of CPU\n  input: \(Mutator.describe(mutated))")
            }
        }
        return run
    }

    /// The CPU time this thread has used. A decode is timed by it, not by the wall clock: a decode is synchronous
    /// (it stays on its thread), and a loaded machine's waits for a core must not look like a hang.
    static func threadCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    static func expectPassed(_ run: Run, function: String = #function, sourceLocation: SourceLocation = #_sourceLocation) {
        let failures = run.failures.prefix(5).joined(separator: "\n")
        #expect(run.failures.isEmpty, "\(run.failures.count) failures:\n\(failures)", sourceLocation: sourceLocation)
        #expect(run.tally.accepted > 0 && run.tally.rejected > 0, "\(run.tally)", sourceLocation: sourceLocation)
        print("\(function): \(run.tally.accepted) inputs or lines accepted, \(run.tally.rejected) rejected (seed \(seed))")
    }

    /// What is wrong with an error, if anything: it must have a message, a line (≥ 1, within the input) and,
    /// when it has one, a column ≥ 1.
    static func problem(with error: InputError, in bytes: [UInt8]) -> String? {
        if error.message.isEmpty { return "an error without a message: \(error)" }
        guard let line = error.line else { return "an error without a line: \(error)" }
        let lines = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        if line < 1 || line > lines { return "line \(line) is outside the input's \(lines) lines: \(error)" }
        if let column = error.column, column < 1 { return "column \(column) < 1: \(error)" }
        return nil
    }

    /// A sample line's error must be on that line.
    static func problem(with error: SampleDecodingError, lineNumber: Int) -> String? {
        if error.error.message.isEmpty { return "an error without a message: \(error.error)" }
        if error.error.line != lineNumber {
            return "line \(lineNumber) reported as \(error.error.line.map(String.init) ?? "nil"): \(error.error)"
        }
        if let column = error.error.column, column < 1 { return "column \(column) < 1: \(error.error)" }
        return nil
    }

    /// A decoded sample must be one the pipeline can take.
    static func problem(with sample: LocationSample) -> String? {
        if sample.device.isEmpty { return "a sample without a device" }
        if !Timestamp.textRange.contains(sample.time) { return "a time out of range: \(sample.time.microseconds)" }
        if let accuracy = sample.accuracy, !(accuracy.isFinite && accuracy >= 0) { return "accuracy \(accuracy)" }
        return nil
    }

    /// The lines of `bytes`, split in random chunk sizes; `nil` when they differ from splitting it whole.
    static func split(_ bytes: [UInt8], random: inout SplitMix64) -> [(ArraySlice<UInt8>, Int)]? {
        func pieces(_ sizes: () -> Int) -> [LineSplitter.Piece] {
            var splitter = LineSplitter(maxLineLength: 4096)
            var pieces: [LineSplitter.Piece] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + sizes())
                pieces += splitter.lines(in: Array(bytes[start..<end]))
                start = end
            }
            return pieces + splitter.finish()
        }
        let whole = pieces { bytes.count }
        let chunked = pieces { 1 + Int(random.next() % 64) }
        guard whole == chunked else { return nil }
        return whole.compactMap { piece in
            if case .line(let line, let number) = piece { return (line, number) }
            return nil
        }
    }

    static func readGPX(_ bytes: [UInt8], chunkSizes: [Int], maxTokenLength: Int = 1 << 20)
        -> (events: [GPXEvent], error: InputError?)
    {
        var reader = GPXReader(maxTokenLength: maxTokenLength)
        var events: [GPXEvent] = []
        do throws(InputError) {
            var start = 0
            var sizes = chunkSizes.makeIterator()
            while start < bytes.count {
                let end = min(bytes.count, start + (sizes.next() ?? bytes.count))
                try reader.feed(Array(bytes[start..<end]), into: &events)
                start = end
            }
            try reader.finish(into: &events)
            return (events, nil)
        } catch {
            return (events, error)
        }
    }
}
