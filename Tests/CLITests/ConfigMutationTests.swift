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
