import Foundation
import GeofenceKit
import TestSupport
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
