import Foundation
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// Seeded mutation ("fuzz") tests of the decoders: valid inputs are damaged in thousands of ways — bits and bytes
/// flipped, truncated, spliced into one another, ranges duplicated or deleted, quotes, brackets, NULs and broken
/// UTF-8 inserted — and every decoder must answer each with a result or a located error, never a crash (a trap
/// would end the test process), never a hang, and never an error without a message or with a line before 1.
/// (That every failure is an ``InputError``, or a ``SampleDecodingError`` for sample lines, the decoders' typed
/// `throws` guarantee; the tests check its line, column and message.) GPX is also read in random chunk sizes,
/// which must not change the outcome, and so are sample streams by ``LineSplitter``.
///
/// Deterministic: mutation `i` of a suite is drawn from `SplitMix64(seed: seed, stream: i, purpose: suite)`, so
/// one case can be replayed alone. A failure names its suite, seed and index. To find the case behind a crash,
/// set `DECODER_MUTATION_TRACE=1`: every case is printed before it is decoded. `DECODER_MUTATION_SEED` and
/// `DECODER_MUTATION_SCALE` search further (`swift test --filter DecoderMutation`).
@Suite struct DecoderMutationTests {
    static let environment = ProcessInfo.processInfo.environment
    /// The fixed seed; `DECODER_MUTATION_SEED=N` explores others (and replays a failure found with one).
    static let seed: UInt64 = environment["DECODER_MUTATION_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026_1121
    /// `DECODER_MUTATION_SCALE=K` runs K times as many mutations, for a longer search.
    static let scale = environment["DECODER_MUTATION_SCALE"].flatMap { Int($0) }.map { max(1, $0) } ?? 1
    /// A single decode using more CPU time than this is reported as a (near) hang: inputs are a few kilobytes.
    static let slowDecode = Duration.seconds(2)
    static let trace = environment["DECODER_MUTATION_TRACE"] != nil

    // MARK: Valid inputs

    static let geoJSON = Array(
        #"""
        {
          "type": "FeatureCollection",
          "features": [
            {"type": "Feature", "id": "taipei-main",
             "geometry": {"type": "Point", "coordinates": [121.5170, 25.0478]},
             "properties": {"radius": 200, "notifyOnExit": false, "devices": ["bus-17", "walker-1"]}},
            {"type": "Feature", "id": 17,
             "geometry": {"type": "Point", "coordinates": [121.5645, 25.0340, 12.5]},
             "properties": {"radius": 1.5e2, "loiteringDelay": 30, "notifyOnDwell": true, "name": "101 \u00e9\ud83d\ude00"}},
            {"type": "Feature", "properties": {"id": "daan-park", "radius": null},
             "geometry": {"type": "Polygon", "coordinates": [[
               [121.5330, 25.0290], [121.5380, 25.0290], [121.5380, 25.0340], [121.5330, 25.0340], [121.5330, 25.0290]],
               [[121.5340, 25.0300], [121.5350, 25.0300], [121.5350, 25.0310]]]}},
            {"type": "Feature", "id": "two",
             "geometry": {"type": "MultiPolygon", "coordinates": [
               [[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[-1, -1], [-2, -1], [-2, -2]]]]},
             "properties": {}}
          ]
        }
        """#.utf8)

    static let ndjson = Array(
        #"""
        {"device":"walker-1","lat":25.0300,"lon":121.5300,"time":"2026-11-21T08:00:00Z"}
        {"device":"bus-17","lat":25.0478,"lon":121.5171,"time":1795248001.5,"accuracy":8}
        {"device":17,"lat":-90,"lon":180,"time":"2026-11-21T16:00:00.25+08:00","speed":{"v":[1,2,{"x":null}]},"note":"a\"b"}
        {"dev\u0069ce":"b\u00fcs","lat":1e1,"lon":2.5E-1,"time":"2026-11-21 08:00:00z","accuracy":null}

        """#.utf8) + Array("{\"device\":\"é\",\"lat\":0,\"lon\":0,\"time\":0}\r\n".utf8)

    static let csv = Array(
        #"""
        device,lat,lon,time,accuracy,speed
        walker-1,25.0300,121.5300,2026-11-21T08:00:00Z,5,1
        "bus, 17", +25.0478 ,121.5171,1795248001.5,,
        "say ""hi""",-90,180,2026-11-21T16:00:00.25+08:00,0
        é,1e1,2.5E-1,1795248180
        """#.utf8) + Array("x,1,2,3\r\n".utf8)

    static let gpx = Array(
        """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <!-- exported by hand -->
        <?xml-stylesheet href="style.xsl"?>
        <!DOCTYPE gpx PUBLIC "-//GPX//EN" "gpx.dtd">
        <gpx version="1.1" creator="tests &amp; more" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
          <metadata><name>Mutations &lt;3</name><time>2026-11-21T08:00:00Z</time></metadata>
          <wpt lat="25.0478" lon='121.5170'><ele>12.5</ele><name><![CDATA[Main <station>]]></name></wpt>
          <rte><name>route</name>
            <rtept lat="25.0300" lon="121.5300"><time>2026-11-21T08:00:00Z</time></rtept>
            <rtept lat="25.0340" lon="121.5645"/>
          </rte>
          <trk><name>walk</name><trkseg>
            <trkpt lat="25.0300" lon="121.5300"><ele>1</ele><time>2026-11-21T08:00:00Z</time>
              <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>
            </trkpt>
            <trkpt lat="25.0301" lon="121.5301"><time>2026-11-21T08:00:01.5Z</time></trkpt>
            <trkpt lat="&#50;5.0302" lon="121.5302"><time>2026-11-21T08:00:02</time><ele>bad</ele></trkpt>
          </trkseg><trkseg/></trk>
        </gpx>

        """.utf8)

    static let config = Array(
        #"""
        {
          "source": {"kind": "random-walk", "devices": 10000, "center": {"lat": 25.0330, "lon": 121.5654},
                     "speed": {"min": 1, "max": 30}, "start": "2026-11-21T08:00:00Z", "duration": 600},
          "regions": {"file": null, "perDevice": 20, "radius": {"min": 100, "max": 2000}},
          "seed": 18446744073709551615, "pace": 2.5e0, "events": "events.ndjson", "quiet": false,
          "filters": {"distance": null, "significantChange": true}, "pipeline": {"shards": 0, "batchSize": 1024}
        }
        """#.utf8)

    /// Real GPX files from the CLI tests' fixtures: every field GPX 1.1 defines, and an ISO-8859-1 file (the
    /// transcoding path). Missing files (a tree without the fixtures) are left out.
    static let realGPX: [[UInt8]] = ["gpxpy__gpx1.1_with_all_fields.gpx", "gpxgo__iso8859-1encoded.gpx"].compactMap {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return FileManager.default.contents(atPath: folder.path + "/CLITests/Fixtures/gpx/" + $0).map { Array($0) }
    }

    static var inputs: [[UInt8]] { [geoJSON, ndjson, csv, gpx, config] }

    // MARK: Tests

    @Test func jsonParserSurvivesMutations() {
        let run = Self.run(suite: 1, count: 1_500, bases: [Self.geoJSON, Self.config, Self.ndjson]) { bytes, _, tally in
            do throws(InputError) {
                _ = try JSONParser.parse(bytes)
                tally.accepted += 1
                return nil
            } catch {
                tally.rejected += 1
                return Self.problem(with: error, in: bytes)
            }
        }
        Self.expectPassed(run)
    }

    @Test func geoJSONDecoderSurvivesMutations() {
        let run = Self.run(suite: 2, count: 1_500, bases: [Self.geoJSON]) { bytes, _, tally in
            var warnings: [InputError] = []
            do throws(InputError) {
                let regions = try GeoJSONRegionDecoder.decode(bytes, warnings: &warnings)
                tally.accepted += 1
                if let bad = regions.first(where: { $0.id.isEmpty }) { return "a region with an empty id: \(bad)" }
            } catch {
                tally.rejected += 1
                if let problem = Self.problem(with: error, in: bytes) { return problem }
            }
            for warning in warnings {
                if let problem = Self.problem(with: warning, in: bytes) { return "warning: " + problem }
            }
            return nil
        }
        Self.expectPassed(run)
    }

    @Test func ndjsonDecoderSurvivesMutations() {
        let run = Self.run(suite: 3, count: 1_200, bases: [Self.ndjson]) { bytes, random, tally in
            guard let lines = Self.split(bytes, random: &random) else { return "LineSplitter depends on the chunk sizes" }
            for (line, number) in lines where !SampleDecoder.isBlank(line) {
                do throws(SampleDecodingError) {
                    let sample = try SampleDecoder.decodeNDJSON(line: line, lineNumber: number)
                    tally.accepted += 1
                    if let problem = Self.problem(with: sample) { return "line \(number): \(problem)" }
                } catch {
                    tally.rejected += 1
                    if let problem = Self.problem(with: error, lineNumber: number) { return problem }
                }
            }
            return nil
        }
        Self.expectPassed(run)
    }

    @Test func csvDecoderSurvivesMutations() throws {
        let original = try CSVSampleHeader("device,lat,lon,time,accuracy,speed")
        let run = Self.run(suite: 4, count: 1_200, bases: [Self.csv]) { bytes, random, tally in
            guard let lines = Self.split(bytes, random: &random) else { return "LineSplitter depends on the chunk sizes" }
            var header: CSVSampleHeader?
            for (line, number) in lines where !SampleDecoder.isBlank(line) {
                guard let known = header else {
                    do throws(SampleDecodingError) {
                        header = try CSVSampleHeader(line: line, lineNumber: number)
                    } catch {
                        if let problem = Self.problem(with: error, lineNumber: number) { return "header: " + problem }
                        header = original  // go on with the rows
                    }
                    continue
                }
                do throws(SampleDecodingError) {
                    let sample = try SampleDecoder.decodeCSV(line: line, header: known, lineNumber: number)
                    tally.accepted += 1
                    if let problem = Self.problem(with: sample) { return "line \(number): \(problem)" }
                } catch {
                    tally.rejected += 1
                    if let problem = Self.problem(with: error, lineNumber: number) { return problem }
                }
            }
            return nil
        }
        Self.expectPassed(run)
    }

    /// GPX is read whole and in random chunk sizes (1–8 or 1–512 bytes): both must give the same events and error.
    /// (References and tags are never split by chunks, and whether a tag is too long does not depend on them.)
    @Test func gpxReaderSurvivesMutationsInAnyChunking() {
        let run = Self.run(suite: 5, count: 1_500, bases: [Self.gpx] + Self.realGPX) { bytes, random, tally in
            // Half the time a tag limit small enough for the mutations to cross it.
            let maxTokenLength = random.next() % 2 == 0 ? 1 << 20 : 64 + Int(random.next() % 256)
            let whole = Self.readGPX(bytes, chunkSizes: [bytes.count + 1], maxTokenLength: maxTokenLength)
            var sizes: [Int] = []
            var total = 0
            let largest = UInt64(random.next() % 2 == 0 ? 8 : 512)
            while total < bytes.count {
                sizes.append(1 + Int(random.next() % largest))
                total += sizes[sizes.count - 1]
            }
            let chunked = Self.readGPX(bytes, chunkSizes: sizes, maxTokenLength: maxTokenLength)
            guard chunked.events == whole.events, chunked.error == whole.error else {
                return "chunks \(sizes.prefix(20))… read differently from the whole document: "
                    + "\(chunked.error.map(String.init(describing:)) ?? "no error") / "
                    + "\(whole.error.map(String.init(describing:)) ?? "no error"), "
                    + "\(chunked.events.count) / \(whole.events.count) events"
            }
            if let error = whole.error {
                tally.rejected += 1
                if let problem = Self.problem(with: error, in: bytes) { return problem }
            } else {
                tally.accepted += 1
            }
            for event in whole.events {
                switch event {
                case .invalidPoint(_, let error), .warning(let error):
                    if let problem = Self.problem(with: error, in: bytes) { return problem }
                case .waypoint(let point), .routePoint(let point), .trackPoint(let point):
                    guard (try? Coordinate(latitude: point.latitude, longitude: point.longitude)) != nil,
                        point.line >= 1, point.time.map(Timestamp.textRange.contains) ?? true
                    else { return "an invalid point was let through: \(point)" }
                default: break
                }
            }
            return nil
        }
        Self.expectPassed(run)
    }
}
