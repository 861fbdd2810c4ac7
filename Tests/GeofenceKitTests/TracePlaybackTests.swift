import Foundation
import Testing
@testable import GeofenceKit

@Suite struct TracePlaybackTests {
    static let t0: Int64 = 1_795_248_000_000_000

    static func path(_ points: [(Double, Double, Int64?)], recorded: Bool = false) -> Trace.Segment {
        var segment = Trace.Segment(playsRecordedTimes: recorded)
        for (lat, lon, time) in points { segment.append(latitude: lat, longitude: lon, time: time) }
        return segment
    }

    static func play(_ trace: Trace, speed: Double = 10, interval: Double = 1) -> [(Double, Double, Double)] {
        var player = TracePlayer(
            timeline: TraceTimeline(trace: trace, speed: speed, interval: interval), start: Timestamp(microseconds: t0),
            interval: interval)
        var samples: [(Double, Double, Double)] = []
        while let sample = player.next() {
            samples.append((sample.latitude, sample.longitude, Double(sample.time.microseconds - t0) / 1e6))
        }
        return samples
    }

    @Test func timedWaypointsAreInterpolatedAtTheIntervalFromTheirTimes() {
        // Two waypoints 10 s apart: samples every 2 s, positions proportional to the time elapsed.
        let trace = Trace(name: "w", segments: [Self.path([(0, 0, Self.t0), (0.001, 0.002, Self.t0 + 10_000_000)])])
        let samples = Self.play(trace, interval: 2)
        #expect(samples.map(\.2) == [0, 2, 4, 6, 8, 10])
        for (lat, lon, t) in samples {
            #expect(abs(lat - 0.001 * t / 10) < 1e-12)
            #expect(abs(lon - 0.002 * t / 10) < 1e-12)
        }
    }

    @Test func untimedWaypointsMoveAtTheConfiguredSpeed() {
        // 1 km north at 25 m/s takes 40 s.
        let end = Geodesic.destination(latitude: 25, longitude: 121, bearing: 0, distance: 1_000)
        let trace = Trace(name: "w", segments: [Self.path([(25, 121, nil), (end.latitude, end.longitude, nil)])])
        let samples = Self.play(trace, speed: 25, interval: 5)
        #expect(samples.count == 9)
        #expect(abs((samples.last?.2 ?? 0) - 40) < 1e-6)
        for (a, b) in zip(samples, samples.dropFirst()) {
            let step = Geodesic.distance(latitude1: a.0, longitude1: a.1, latitude2: b.0, longitude2: b.1)
            #expect(abs(step - 125) < 0.5)
        }
    }

    @Test func theLastWaypointIsReachedEvenOffTheIntervalGrid() {
        let trace = Trace(name: "w", segments: [Self.path([(0, 0, Self.t0), (0, 0.001, Self.t0 + 2_500_000)])])
        let samples = Self.play(trace, interval: 1)
        #expect(samples.map(\.2) == [0, 1, 2, 2.5])
        #expect(samples.last?.1 == 0.001)
    }

    @Test func recordedTracksPlayTheirOwnTimesAndSegmentGapsAreNotBridged() {
        let first = Self.path([(0, 0, Self.t0), (0, 0.001, Self.t0 + 7_000_000)], recorded: true)
        let second = Self.path([(1, 1, Self.t0 + 60_000_000), (1, 1.001, Self.t0 + 61_000_000)], recorded: true)
        let samples = Self.play(Trace(name: "t", segments: [first, second]))
        #expect(samples.map(\.2) == [0, 7, 60, 61])
        #expect(samples.map(\.0) == [0, 0, 1, 1])
    }

    @Test func recordedTracksAfterAnUntimedOneKeepTheirRecordedGap() {
        // An untimed track first (a path, 100 s at 10 m/s), then two recorded ones 288 s apart that were recorded
        // before the path could have ended: the first of them is pushed to one interval after the path, and the
        // second keeps its 288 s after it (it followed one interval after the first instead).
        let end = Geodesic.destination(latitude: 0, longitude: 0, bearing: 90, distance: 1_000)
        let path = Self.path([(0, 0, nil), (end.latitude, end.longitude, nil)], recorded: true)
        let first = Self.path([(1, 1, Self.t0), (1, 1.001, Self.t0 + 7_000_000)], recorded: true)
        let second = Self.path([(2, 2, Self.t0 + 295_000_000), (2, 2.001, Self.t0 + 296_000_000)], recorded: true)
        let samples = Self.play(Trace(name: "t", segments: [path, first, second]))
        let recorded = samples.filter { $0.0 >= 1 }.map(\.2)
        #expect(recorded.count == 4)
        #expect(abs(recorded[0] - 101) < 1e-6, "\(recorded)")
        for (offset, expected) in zip(recorded.map { $0 - recorded[0] }, [0.0, 7, 295, 296]) {
            #expect(abs(offset - expected) < 1e-5, "\(recorded)")
        }
    }

    @Test func untimedTrackSegmentsAreSampledAtSpeedAndStillSeparated() {
        let first = Self.path([(0, 0, nil), (0, 0.0001, nil)], recorded: true)
        let second = Self.path([(1, 1, nil), (1, 1.0001, nil)], recorded: true)
        let samples = Self.play(Trace(name: "t", segments: [first, second]), speed: 100, interval: 1)
        // No sample lies between the two segments' positions.
        #expect(samples.allSatisfy { $0.0 == 0 || $0.0 == 1 })
        #expect(samples.filter { $0.0 == 1 }.first.map { $0.2 } ?? 0 > samples.filter { $0.0 == 0 }.last.map { $0.2 } ?? 0)
    }

    @Test func aSinglePointPlaysOnce() {
        let samples = Self.play(Trace(name: "p", segments: [Self.path([(40.7, -74, nil)])]))
        #expect(samples.count == 1)
    }

    @Test func routesParseAndRejectBadWaypoints() throws {
        let route = try Trace.route("25.0478,121.517; 25.0340,121.5645")
        #expect(route.segments.first?.count == 2)
        #expect(route.segments.first?.playsRecordedTimes == false)
        #expect(throws: InputError.self) { try Trace.route("25.0478,121.517") }
        #expect(throws: InputError.self) { try Trace.route("25.0478,121.517;91,0") }
        #expect(throws: InputError.self) { try Trace.route("north,east;1,2") }
        do {
            _ = try Trace.route("1,2;3,4;x")
        } catch {
            #expect(error.field == "route waypoint 3")
        }
    }
}
