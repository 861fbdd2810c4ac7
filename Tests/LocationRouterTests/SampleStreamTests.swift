import Foundation
import GeofenceKit
import TestSupport
import Testing
@testable import LocationRouter
import GeofenceFormats

@Suite struct SampleStreamTests {
    static let regionsGeoJSON = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":"station","geometry":{"type":"Point","coordinates":[121.517,25.0478]},"properties":{"radius":200}},
          {"type":"Feature","id":"bus-only","geometry":{"type":"Point","coordinates":[121.517,25.0478]},"properties":{"radius":500,"devices":["bus-17"]}}
        ]}
        """

    static func run(_ text: String, failOnBadInput: Bool = false, shards: Int = 2) async throws -> (RunReport, CollectingSink) {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try temporaryFile(text, in: folder)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let regions = try GeoJSONRegionDecoder.decode(Array(regionsGeoJSON.utf8))
        let input = SampleInput(descriptor: descriptor, name: "samples.ndjson", failOnBadInput: failOnBadInput)
        let configuration = SimulationConfiguration(source: .samples(input), regions: regions, shards: shards)
        let sink = CollectingSink()
        return (try await Simulation(configuration: configuration, sink: sink).run(), sink)
    }

    static let journey = """
        {"device":"bus-17","lat":25.0600,"lon":121.5170,"time":"2026-11-21T08:00:00Z"}
        {"device":"walker","lat":25.0478,"lon":121.5170,"time":"2026-11-21T08:00:00Z"}
        {"device":"bus-17","lat":25.0500,"lon":121.5170,"time":"2026-11-21T08:00:30Z"}
        {"device":"bus-17","lat":25.0478,"lon":121.5171,"time":1795248060.5,"accuracy":12}
        {"device":"walker","lat":25.0600,"lon":121.5170,"time":"2026-11-21T08:01:00Z"}
        {"device":"bus-17","lat":25.0600,"lon":121.5170,"time":"2026-11-21T08:02:00Z"}
        """

    @Test func samplesFromAStreamProduceTheEventsOfEachDevicesRegions() async throws {
        let (report, sink) = try await Self.run(Self.journey)
        let lines = sink.linesByDevice
        #expect(lines["walker"] == [
            #"{"device":"walker","region":"station","event":"exit","time":"2026-11-21T08:01:00Z","lat":25.06,"lon":121.517,"seq":1}"#
        ])
        #expect(lines["bus-17"] == [
            #"{"device":"bus-17","region":"bus-only","event":"enter","time":"2026-11-21T08:00:30Z","lat":25.05,"lon":121.517,"seq":1}"#,
            #"{"device":"bus-17","region":"station","event":"enter","time":"2026-11-21T08:01:00.5Z","lat":25.0478,"lon":121.5171,"seq":2}"#,
            #"{"device":"bus-17","region":"station","event":"exit","time":"2026-11-21T08:02:00Z","lat":25.06,"lon":121.517,"seq":3}"#,
            #"{"device":"bus-17","region":"bus-only","event":"exit","time":"2026-11-21T08:02:00Z","lat":25.06,"lon":121.517,"seq":4}"#,
        ])
        #expect(report.devices == 2)
        #expect(report.updates == 6)
        #expect(report.monitoredRegions == 3)
        #expect(report.simulatedSeconds == 120)
    }

    @Test func badLinesAreCountedByReasonNamedByLineAndSkipped() async throws {
        let text = """
            {"device":"a","lat":25.06,"lon":121.517,"time":"2026-11-21T08:00:00Z"}
            not json
            {"device":"a","lat":95,"lon":121.517,"time":"2026-11-21T08:00:01Z"}
            {"device":"a","lon":121.517,"time":"2026-11-21T08:00:02Z"}
            {"device":"a","lat":25.0478,"lon":121.517,"time":"2026-13-21T08:00:03Z"}

            {"device":"a","lat":25.0478,"lon":121.517,"time":"2026-11-21T08:00:04Z"}
            {"device":"a","lat":25.06,"lon":121.517,"time":"2026-11-21T07:00:00Z"}
            """
        let (report, sink) = try await Self.run(text)
        #expect(report.updates == 2)
        #expect(report.rejected["malformed"] == 1)
        #expect(report.rejected["invalidCoordinate"] == 1)
        #expect(report.rejected["missingField"] == 1)
        #expect(report.rejected["invalidTime"] == 1)
        #expect(report.rejected["outOfOrder"] == 1)
        #expect(report.rejectedTotal + report.updates == 7)
        #expect(report.samplesRead == 7)
        #expect(report.isBalanced)
        #expect(report.inputErrors.map(\.line) == [2, 3, 4, 5, 8])
        #expect(report.inputErrors.allSatisfy { $0.file == "samples.ndjson" })
        #expect(report.inputErrors.map(\.field).dropFirst() == ["lat", "lat", "time", "time"])
        #expect(sink.lines.count == 1)  // the enter at line 7
    }

    /// Enough lines for the chunks to be decoded in parallel parts: the counts, the events and the rejected
    /// lines' numbers are those of reading line by line.
    @Test func longStreamsDecodedInParallelKeepLineOrderAndNumbers() async throws {
        var text = ""
        var badLines: [Int] = []
        for k in 0..<20_000 {
            let time = 1_795_248_000 + k
            if k % 997 == 0 {
                text += "{\"device\":\"d\(k % 50)\",\"lat\":95,\"lon\":121.517,\"time\":\(time)}\n"
                badLines.append(k + 1)
            } else {
                let latitude = (k / 50) % 2 == 0 ? "25.0478" : "25.06"
                text += "{\"device\":\"d\(k % 50)\",\"lat\":\(latitude),\"lon\":121.517,\"time\":\(time)}\n"
            }
        }
        let (report, sink) = try await Self.run(text)
        #expect(report.updates == 20_000 - badLines.count)
        #expect(report.rejected["invalidCoordinate"] == badLines.count)
        #expect(report.inputErrors.map(\.line) == Array(badLines.prefix(20)))  // the report keeps the first 20
        // Each device alternates inside and outside the station's 200 m: nearly every sample is a crossing.
        #expect((report.events["enter"] ?? 0) > 9_000 && (report.events["exit"] ?? 0) > 9_000)
        #expect(sink.lines.count == (report.events["enter"] ?? 0) + (report.events["exit"] ?? 0))
    }

    /// The router guesses each sample's device from the order of the samples before; a guess is only taken when
    /// the names are the same bytes, so devices that change places (or whose names differ only in normalisation)
    /// still get their own samples.
    @Test func devicesThatChangeTheirOrderGetTheirOwnSamples() async throws {
        let devices = ["a", "b", "caf\u{E9}", "cafe\u{301}", "c"]
        // By index, not by name: as `String`s (and so as dictionary keys) the two spellings of café are equal.
        var lines = Array(repeating: [String](), count: devices.count)
        var all: [String] = []
        for step in 0..<12 {
            // The same order for a few steps, then rotated or reversed.
            var order = Array(devices.indices)
            if step % 4 == 3 { order.reverse() } else if step >= 6 { order = order.map { ($0 + step) % devices.count } }
            for index in order {
                let latitude = (step + index) % 3 == 0 ? "25.0478" : "25.06"
                lines[index].append(
                    "{\"device\":\"\(devices[index])\",\"lat\":\(latitude),\"lon\":121.517,\"time\":\(1_795_248_000 + step)}")
                all.append(lines[index].last!)
            }
        }
        let (report, sink) = try await Self.run(all.joined(separator: "\n"))
        #expect(report.devices == devices.count)
        #expect(report.updates == 60)
        for (index, device) in devices.enumerated() {
            let (_, alone) = try await Self.run(lines[index].joined(separator: "\n"))
            let own = sink.lines.filter { $0.utf8.starts(with: "{\"device\":\"\(device)\",".utf8) }
            #expect(!own.isEmpty)
            #expect(own == alone.lines, "\(device)")
        }
    }

    @Test func failOnBadInputStopsAtTheFirstBadLine() async throws {
        let text = Self.journey.replacingOccurrences(of: "\"lat\":25.0500", with: "\"lat\":\"x\"")
        await #expect(throws: BadInputError.self) { _ = try await Self.run(text, failOnBadInput: true) }
        do {
            _ = try await Self.run(text, failOnBadInput: true)
        } catch let error as BadInputError {
            #expect(error.error.line == 3)
            #expect(error.error.field == "lat")
        }
    }

    @Test func csvWithAHeaderIsReadLikeNDJSON() async throws {
        let csv = """
            device,lat,lon,time,accuracy
            walker,25.0478,121.5170,2026-11-21T08:00:00Z,5
            walker,25.0600,121.5170,2026-11-21T08:01:00Z,
            """
        let (report, sink) = try await Self.run(csv)
        #expect(report.updates == 2)
        #expect(report.samplesRead == 2, "the header is not a sample")
        #expect(report.rejectedTotal == 0)
        #expect(sink.lines == [
            #"{"device":"walker","region":"station","event":"exit","time":"2026-11-21T08:01:00Z","lat":25.06,"lon":121.517,"seq":1}"#
        ])
    }

    /// A pipe read as standard input is grown to four blocks, so that a block is taken in one read and a fast writer
    /// is not stopped every 64 KiB; its lines read as before.
    @Test func aPipeIsGrownToFourBlocksAndReadWhole() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let stream = SampleBlockStream(
            descriptor: ends[0], name: "stdin", format: .csv, maxLineLength: 1 << 20)
        #if os(Linux)
        let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ
        #expect(fcntl(ends[0], getPipeSize) >= Int32(4 * SampleBlockStream.blockSize))
        #endif
        let text = "device,lat,lon,time\n" + (0..<5_000).map { "d-\($0 % 7),1.5,2.5,\(1_795_248_000 + $0)\n" }.joined()
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        #expect(written == bytes.count)
        var lines = 0
        for try await item in stream.items {
            stream.consumed()
            switch item {
            case .decoding(let task): lines += await task.value.count
            case .undecoded(let block):
                if case .lines(_, _, let count) = block { lines += count - 1 }  // less the header
            }
        }
        #expect(lines == 5_000)
    }
}
