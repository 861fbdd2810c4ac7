import Foundation
import TestSupport
import Testing

/// `kill -9` at a random moment, then a restart with the same `--events` and `--state`: the events file then
/// holds every transition exactly once — the same lines, `seq` included, as one uninterrupted run.
@Suite struct CrashRestartTests {
    /// 120 devices walking back and forth across Taipei Main Station's 200 m circle, a sample every 5 s.
    static func samples() -> String {
        var lines: [String] = []
        for step in 0..<240 {
            for device in 0..<120 {
                let phase = Double(step + device * 7) / 12
                let latitude = 25.0478 + 0.004 * sin(phase)
                let longitude = 121.5170 + 0.002 * cos(phase * 0.7)
                lines.append(#"{"device":"d\#(device)","lat":\#(latitude),"lon":\#(longitude),"time":\#(1_795_248_000 + step * 5)}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var profile: String
        var source: String
        var testDescription: String { "\(profile), \(source)" }
    }

    static let cases = ["exact", "ios", "android"].flatMap { profile in
        ["random-walk", "stdin", "gpx"].map { Case(profile: profile, source: $0) }
    }

    @Test(arguments: cases)
    func aRunKilledAtARandomMomentAndRestartedWritesEveryTransitionOnce(_ test: Case) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/samples.ndjson"
        try Self.samples().write(toFile: input, atomically: false, encoding: .utf8)
        var common = ["--profile", test.profile, "--quiet", "--no-report"]
        switch test.source {
        case "stdin": common += ["--source", "stdin", "--regions", fixture("taipei-regions.geojson")]
        case "gpx": common += ["--source", "gpx:" + fixture("gpx/gpxgo__visnjan.gpx"), "--devices", "60", "--position-jitter", "200"]
        default: common += ["--devices", "150", "--duration", "900"]
        }
        let stdin = test.source == "stdin" ? input : nil

        let whole = try await run(common + ["--events", directory + "/whole.ndjson"], stdin: stdin, in: directory)
        #expect(whole == 0)

        let events = directory + "/events.ndjson"
        let state = directory + "/state.ndjson"
        let restartable = common + ["--events", events, "--state", state, "--snapshot-interval", "0.03"]
        // Paced so that the run lasts a few seconds, and killed once a random share of the whole run's events is
        // written (so the moment depends on progress, not on how busy the machine is), snapshots taken all along.
        let pace = ["stdin": "400", "gpx": "600"][test.source] ?? "300"
        let wholeBytes = (try FileManager.default.attributesOfItem(atPath: directory + "/whole.ndjson")[.size] as? Int) ?? 0
        let killed = try await run(
            restartable + ["--pace", pace], stdin: stdin, in: directory,
            killAt: (events, Int(Double(wholeBytes) * Double.random(in: 0.05...0.8))))
        #expect(killed == SIGKILL)
        let restarted = try await run(restartable, stdin: stdin, in: directory)
        #expect(restarted == 0)

        let expected = try Self.linesByDevice(directory + "/whole.ndjson")
        let actual = try Self.linesByDevice(events)
        #expect(expected.values.joined().count > 100, "the walk must cross the boundaries for this to mean anything")
        let differing = expected.keys.filter { actual[$0] != expected[$0] }.sorted()
        #expect(actual.count == expected.count && differing.isEmpty, "devices whose events differ: \(differing.prefix(5))")
    }

    static func linesByDevice(_ path: String) throws -> [String: [String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var groups: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            let device = line.components(separatedBy: "\"device\":\"")[1].components(separatedBy: "\"")[0]
            groups[device, default: []].append(String(line))
        }
        return groups
    }

    /// Runs the executable; returns its exit status, or the signal that ended it.
    /// - Parameter killAt: kills the process with SIGKILL once the file has grown to that many bytes.
    private func run(
        _ arguments: [String], stdin: String?, in directory: String, killAt: (file: String, bytes: Int)? = nil
    ) async throws -> Int32 {
        let process = try executableProcess(arguments, in: directory)
        process.standardInput = stdin.flatMap { FileHandle(forReadingAtPath: $0) } ?? FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try await runToExit(process) { process in
            guard let (file, bytes) = killAt else { return }
            // The killer is a thread of its own, as another program would be: busy test threads cannot delay it.
            let pid = process.processIdentifier
            Thread.detachNewThread {
                while kill(pid, 0) == 0 {
                    let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
                    if size >= bytes {
                        kill(pid, SIGKILL)
                        return
                    }
                    usleep(2_000)
                }
            }
        }
        return process.terminationStatus
    }
}
