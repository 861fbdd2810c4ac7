import Foundation
import GeofenceKit
import Testing

@testable import location_router

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One case of the hostile-input corpus (`Fixtures/hostile/EXPECTATIONS.json`): a file, the command that reads
/// it, and what must come out.
struct HostileCase: Sendable, Decodable, CustomTestStringConvertible {
    var name: String
    /// Relative to `Fixtures/hostile`, or the name of a generated file.
    var file: String
    /// `check`, `regions`, `config`, `gpx` or `stdin` (see the manifest's `about`).
    var command: String
    var exit: Int32
    /// Text the output (standard output and error together) must contain.
    var contains: [String]
    /// Text it must not contain.
    var absent: [String]?
    /// Options after the command's own (the last value of an option wins).
    var arguments: [String]?
    /// For runs that skip and count: the report's `rejected` counts (reasons not listed must be 0) and `updates`.
    var rejected: [String: Int]?
    var updates: Int?
    /// The peak resident memory the executable may reach.
    var maxPeakMiB: Int?
    /// Whether to run the built executable instead of the command in-process (`stdin` cases always do).
    var executable: Bool?
    /// A file written by the test instead of a committed one.
    var generate: String?

    var testDescription: String { name }
    /// `geojson`, `config`, `ndjson`, `csv` or `gpx`: the folder of a committed file, else the extension.
    var kind: String {
        guard generate != nil else { return String(file.prefix { $0 != "/" }) }
        let pathExtension = (file as NSString).pathExtension
        return pathExtension == "json" ? "config" : pathExtension
    }
}

/// The CLI against the hostile-input corpus: every case must end with its exact exit status, name the file (or
/// `stdin`) and the line and column or key path, count what it skips, and stay within its memory bound.
@Suite struct HostileInputTests {
    static let manifestPath = fixture("hostile/EXPECTATIONS.json")
    static let cases: [HostileCase] = {
        struct Manifest: Decodable { var cases: [HostileCase] }
        guard let data = FileManager.default.contents(atPath: manifestPath),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        return manifest.cases
    }()

    @Test func theCorpusCoversEveryKindOfInputAndEveryFileIsUsed() throws {
        #expect(Self.cases.count >= 40, "the manifest \(Self.manifestPath) is missing or unreadable")
        let kinds = Dictionary(grouping: Self.cases, by: \.kind).mapValues(\.count)
        for kind in ["geojson", "config", "ndjson", "csv", "gpx"] {
            #expect(kinds[kind, default: 0] >= 5, "\(kind): \(kinds)")
        }
        #expect(Set(Self.cases.map(\.command)) == ["check", "regions", "config", "gpx", "stdin"])
        #expect(Self.cases.contains { $0.exit == 0 && !($0.rejected ?? [:]).isEmpty }, "a skip-and-count case")
        let root = (Self.manifestPath as NSString).deletingLastPathComponent
        let committed = Set(Self.cases.filter { $0.generate == nil }.map(\.file))
        for file in committed {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file) is missing")
        }
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter {
            $0.contains("/") && !$0.hasPrefix(".")
        }
        #expect(Set(files) == committed, "files without a case: \(Set(files).subtracting(committed).sorted())")
    }

    @Test(arguments: cases)
    func hostileInputEndsAsExpected(_ hostile: HostileCase) async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path: String
        if let generator = hostile.generate {
            path = folder + "/" + hostile.file
            try Self.generate(generator, at: path)
        } else {
            path = (Self.manifestPath as NSString).deletingLastPathComponent + "/" + hostile.file
        }
        let report = folder + "/report.json"
        let config = folder + "/config.json"  // an empty scenario, so the project's config.json plays no part
        try Data("{}".utf8).write(to: URL(fileURLWithPath: config))
        let regions = fixture("taipei-regions.geojson")
        let quiet = ["--no-events", "--report", report, "--quiet"]
        let arguments: [String]
        switch hostile.command {
        case "check": arguments = ["check", path]
        case "regions":
            arguments = ["run", "--config", config, "--regions", path, "--devices", "1", "--duration", "0"] + quiet
        case "config": arguments = ["run", "--config", path, "--devices", "1", "--duration", "0"] + quiet
        case "gpx":
            arguments = ["run", "--config", config, "--source", "gpx:" + path, "--regions", regions, "--devices", "1"] + quiet
        case "stdin": arguments = ["run", "--config", config, "--source", "stdin", "--regions", regions] + quiet
        default: throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: hostile.command])
        }

        let status: Int32
        let output: String
        if hostile.command == "stdin" || hostile.executable == true {
            let run = try await runExecutableBounded(
                arguments + (hostile.arguments ?? []), stdin: hostile.command == "stdin" ? path : "/dev/null",
                folder: folder)
            #expect(!run.timedOut, "the command did not end within \(run.timeLimit)")
            (status, output) = (run.status, run.out + run.err)
            if let limit = hostile.maxPeakMiB {
                #if os(Linux)
                #expect(run.peakResidentBytes > 0, "the peak resident memory was never sampled")
                #endif
                #expect(run.peakResidentBytes <= limit << 20, "peak resident memory \(run.peakResidentBytes >> 20) MiB")
            }
        } else {
            let run = await runCommand(arguments + (hostile.arguments ?? []), workingDirectory: folder)
            (status, output) = (run.status.rawValue, run.out + run.err)
        }

        #expect(status == hostile.exit, "\(output)")
        let name = hostile.command == "stdin" ? "stdin:" : (hostile.file as NSString).lastPathComponent
        if hostile.exit != 0 || hostile.command == "check" || !(hostile.rejected ?? [:]).isEmpty {
            #expect(output.contains(name), "the output does not name \(name):\n\(output)")
        }
        for text in hostile.contains {
            #expect(output.contains(text), "missing \"\(text)\" in:\n\(output)")
        }
        for text in hostile.absent ?? [] {
            #expect(!output.contains(text), "unexpected \"\(text)\" in:\n\(output)")
        }
        if hostile.exit == 0, hostile.rejected != nil || hostile.updates != nil || hostile.maxPeakMiB != nil {
            try Self.checkReport(at: report, of: hostile)
        }
    }

    /// The report counts every refused line by reason (none silently) and stays within the memory bound.
    static func checkReport(at path: String, of hostile: HostileCase) throws {
        let data = try #require(FileManager.default.contents(atPath: path), "no report at \(path)")
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rejected = try #require(report["rejected"] as? [String: Int])
        if let expected = hostile.rejected {
            for reason in SampleRejection.allCases.map(\.rawValue) {
                #expect(rejected[reason] == expected[reason, default: 0], "rejected.\(reason): \(rejected)")
            }
        }
        if let updates = hostile.updates { #expect(report["updates"] as? Int == updates) }
        if let limit = hostile.maxPeakMiB {
            let peak = try #require(report["peakResidentBytes"] as? Int)
            #expect(peak > 0 && peak <= limit << 20, "peakResidentBytes \(peak >> 20) MiB")
        }
    }

    // MARK: Generated files

    static let goodSample = #"{"device":"bus-17","lat":25.0478,"lon":121.5170,"time":"2026-11-21T08:00:00Z"}"# + "\n"

    /// Writes a file too large (or too silly) to commit.
    static func generate(_ generator: String, at path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        defer { try? handle.close() }
        func write(_ text: String) throws { try handle.write(contentsOf: Data(text.utf8)) }
        func write(_ byte: UInt8, count: Int) throws {
            let block = Data(repeating: byte, count: min(count, 1 << 20))
            var left = count
            while left > 0 {
                try handle.write(contentsOf: left >= block.count ? block : block.prefix(left))
                left -= block.count
            }
        }
        switch generator {
        case "nested-brackets":  // 100,000 "[": a stack overflow for a naive recursive parser
            try write(UInt8(ascii: "["), count: 100_000)
        case "nested-brackets-ndjson":
            try write(goodSample + #"{"device":"bus-17","deep":"#)
            try write(UInt8(ascii: "["), count: 100_000)
            try write("\n")
        case "line-100MB":  // one good line, then 100 MiB without a newline
            try write(goodSample + #"{"device":"bus-18","pad":""#)
            try write(UInt8(ascii: "x"), count: 100 << 20)
        case "huge-tag":  // a start tag of 1.2 MiB, past the 1 MiB limit
            try write("<gpx version=\"1.1\">\n  <wpt lat=\"")
            try write(UInt8(ascii: "1"), count: 1_200_000)
            try write("\" lon=\"2\"/>\n</gpx>\n")
        default:
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: generator])
        }
    }
}

/// Seeded mutations of a valid config.json through `Scenario.apply(configJSON:)`, the config decoder (it lives in
/// the command, out of reach of GeofenceKitTests' mutation tests): every result is a scenario or an error with a
/// message and a line, never a crash. Failures name the seed and mutation index.
@Suite struct ConfigMutationTests {
    /// As in GeofenceKitTests' DecoderMutationTests, `DECODER_MUTATION_SEED` and `DECODER_MUTATION_SCALE` search further.
    static let seed = ProcessInfo.processInfo.environment["DECODER_MUTATION_SEED"].flatMap { UInt64($0) }
        ?? 0x5EED_C0F1_6000
    static let count = 1_500 * max(1, ProcessInfo.processInfo.environment["DECODER_MUTATION_SCALE"].flatMap { Int($0) } ?? 1)
    static let config = Array(
        #"""
        {
          "source": {"kind": "random-walk", "devices": 10000, "center": {"lat": 25.0330, "lon": 121.5654},
                     "areaRadius": 10000, "speed": {"min": 1, "max": 30}, "interval": 1, "headingNoise": 20,
                     "start": "2026-11-21T08:00:00Z", "duration": 600,
                     "playback": {"speed": 10, "sampleDistance": null, "stagger": 1, "timeJitter": 0}},
          "regions": {"file": null, "perDevice": 20, "radius": {"min": 100, "max": 2000}, "maxDistance": 3000},
          "profile": "exact", "monitor": {"slots": 20, "initialTrigger": "none"},
          "seed": 42, "pace": "max", "events": "events.ndjson", "report": "report.json", "quiet": false,
          "onBadInput": "skip", "filters": {"distance": null, "significantChange": false, "accuracy": null},
          "pipeline": {"shards": 0, "batchSize": 1024, "credits": 4}
        }
        """#.utf8)

    static let fragments: [[UInt8]] = [
        "\"", "{", "}", "[", "]", ",", ":", "\\", "\0", "NaN", "1e999", "-1", "0", "null", "true", "\"x\"", "[]", "{}",
        "\u{FEFF}", "é", "\\u0000", "\\ud800", "1.5", "18446744073709551616", "\n", "\"sorce\":1,",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82]]

    @Test func theConfigDecoderSurvivesMutations() {
        var failures: [String] = []
        var outcomes = (valid: 0, invalid: 0)
        for index in 0..<Self.count {
            var random = SplitMix64(seed: Self.seed, stream: UInt64(index), purpose: 1)
            var bytes = Self.config
            for _ in 0..<(random.next() % 4 == 0 ? 3 : 1) { Self.mutate(&bytes, &random) }
            var scenario = Scenario()
            do throws(InputError) {
                try scenario.apply(configJSON: bytes)
                outcomes.valid += 1
            } catch {
                outcomes.invalid += 1
                let lines = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                if error.message.isEmpty || !(1...lines).contains(error.line ?? 0) || (error.column ?? 1) < 1 {
                    let line = error.line.map(String.init) ?? "nil"
                    failures.append("seed \(Self.seed), mutation \(index): \(error) (line \(line))")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        #expect(outcomes.valid > 0 && outcomes.invalid > 0, "\(outcomes)")
    }

    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        func index(_ upper: Int) -> Int { upper <= 0 ? 0 : Int(random.next() % UInt64(upper)) }
        let at = index(bytes.count + 1)
        let length = min(bytes.count - at, index(40))
        switch random.next() % 6 {
        case 0 where at < bytes.count: bytes[at] ^= 1 << UInt8(random.next() % 8)
        case 1: bytes.removeSubrange(at...)
        case 2: bytes.removeSubrange(at..<(at + length))
        case 3: bytes.insert(contentsOf: Array(bytes[at..<(at + length)]), at: index(bytes.count + 1))
        case 4:  // a number replaced by another value
            let digits = bytes.indices.filter { bytes[$0] &- UInt8(ascii: "0") < 10 }
            guard let start = digits.isEmpty ? nil : digits[index(digits.count)] else { break }
            var end = start
            while end < bytes.count, bytes[end] &- UInt8(ascii: "0") < 10 || bytes[end] == UInt8(ascii: ".") { end += 1 }
            bytes.replaceSubrange(start..<end, with: fragments[index(fragments.count)])
        default: bytes.insert(contentsOf: fragments[index(fragments.count)], at: at)
        }
    }
}

// MARK: Running the executable with limits

struct BoundedRun {
    var status: Int32
    var out: String
    var err: String
    /// The child's peak resident memory (on Linux its `VmHWM`, sampled every few milliseconds while it runs).
    var peakResidentBytes: Int
    var timedOut: Bool
    var timeLimit: Duration
}

/// Runs the built `location-router` with `stdin` (a path) as its standard input, its output in files of `folder`,
/// and kills it after `timeLimit`. The exit status is the command's, or 128 + the signal that ended it.
func runExecutableBounded(
    _ arguments: [String], stdin: String, folder: String, timeLimit: Duration = .seconds(120)
) async throws -> BoundedRun {
    let executable = try executablePath()
    let outPath = folder + "/stdout", errPath = folder + "/stderr"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + environment).forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environment)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

    var status: Int32 = 0
    var usage = rusage()
    var timedOut = false
    var peak = 0
    let deadline = ContinuousClock.now + timeLimit
    while true {
        #if os(Linux)
        // The child's own high-water mark, sampled while it runs: wait4's ru_maxrss would also count the memory of
        // this test process, which posix_spawn's child shares until it execs.
        peak = max(peak, residentHighWaterMark(of: pid))
        #endif
        let waited = wait4(pid, &status, WNOHANG, &usage)
        if waited == pid { break }
        if waited < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if ContinuousClock.now > deadline && !timedOut {
            timedOut = true
            kill(pid, SIGKILL)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
    let signal = status & 0x7F
    #if !os(Linux)
    peak = Int(usage.ru_maxrss)  // bytes on Darwin
    #endif
    func text(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
    return BoundedRun(
        status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, out: text(outPath), err: text(errPath),
        peakResidentBytes: peak, timedOut: timedOut, timeLimit: timeLimit)
}

/// `VmHWM` of a running process in bytes; 0 when it cannot be read (the process has ended).
func residentHighWaterMark(of pid: pid_t) -> Int {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/status") else { return 0 }
    let status = String(decoding: data, as: UTF8.self)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
    else { return 0 }
    return kilobytes * 1024
}
