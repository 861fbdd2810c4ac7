import Testing
@testable import GeofenceFormats
import GeofenceKit

/// Hand-made GPX files through the reader, the trace builder and the player: what a device plays.
@Suite struct GPXPlaybackTests {
    static func play(_ gpx: String, speed: Double = 10, interval: Double = 1) throws -> (samples: [(Double, Double, Double)], warnings: [InputError]) {
        var builder = GPXTraceBuilder()
        builder.consume(try GPXReader.events(in: Array(gpx.utf8)))
        let start = Timestamp(microseconds: 0)
        var player = TracePlayer(
            timeline: TraceTimeline(trace: builder.trace(name: "test"), speed: speed, interval: interval), start: start,
            interval: interval)
        var samples: [(Double, Double, Double)] = []
        while let sample = player.next() { samples.append((sample.latitude, sample.longitude, sample.time.seconds)) }
        return (samples, builder.warnings)
    }

    @Test func timedWaypointsPlayLikeXcode() throws {
        let gpx = """
            <gpx version="1.1"><wpt lat="10" lon="20"><time>2020-01-01T00:00:00Z</time></wpt>
            <wpt lat="10.004" lon="20"><time>2020-01-01T00:00:04Z</time></wpt>
            <wpt lat="10.004" lon="20.002"><time>2020-01-01T00:00:06Z</time></wpt></gpx>
            """
        let (samples, warnings) = try Self.play(gpx)
        #expect(warnings.isEmpty)
        #expect(samples.map(\.2) == [0, 1, 2, 3, 4, 5, 6])
        #expect(samples.map(\.0).map { ($0 * 1e6).rounded() / 1e6 } == [10, 10.001, 10.002, 10.003, 10.004, 10.004, 10.004])
        #expect(abs(samples[5].1 - 20.001) < 1e-12)
    }

    @Test func untimedRoutePointsMoveAtTheConfiguredSpeed() throws {
        let end = Geodesic.destination(latitude: 10, longitude: 20, bearing: 90, distance: 100)
        let gpx = """
            <gpx><rte><rtept lat="10" lon="20"/><rtept lat="\(end.latitude)" lon="\(end.longitude)"/></rte></gpx>
            """
        let (samples, _) = try Self.play(gpx, speed: 20, interval: 1)
        #expect(samples.count == 6)
        #expect(abs(samples.last!.2 - 5) < 1e-6)
    }

    @Test func trackSegmentsAreGapsAndBackwardTimesAreReportedNotPlayed() throws {
        let gpx = """
            <gpx><trk><trkseg>
            <trkpt lat="1" lon="1"><time>2020-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1.001" lon="1"><time>2020-01-01T00:00:10Z</time></trkpt>
            <trkpt lat="1.002" lon="1"><time>2020-01-01T00:00:05Z</time></trkpt>
            </trkseg><trkseg>
            <trkpt lat="2" lon="2"><time>2020-01-01T00:01:00Z</time></trkpt>
            <trkpt lat="2.001" lon="2"><time>2020-01-01T00:01:01Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let (samples, warnings) = try Self.play(gpx)
        #expect(samples.map(\.2) == [0, 10, 60, 61])
        #expect(samples.map(\.0) == [1, 1.001, 2, 2.001])
        #expect(warnings.count == 1)
        #expect(warnings.first?.line == 4)
        #expect(warnings.first?.field == "trkpt.time")
    }

    @Test func tracksTakePrecedenceOverWaypointsAndInvalidPointsAreSkipped() throws {
        let gpx = """
            <gpx><wpt lat="50" lon="50"/>
            <trk><trkseg><trkpt lat="undefined" lon="1"/><trkpt lat="3" lon="3"/></trkseg></trk></gpx>
            """
        let (samples, warnings) = try Self.play(gpx)
        #expect(samples.map(\.0) == [3])
        #expect(warnings.count == 1)
    }
}
