import Testing

@testable import GeofenceFormats
import GeofenceKit

@Suite struct GPXSummaryTests {
    @Test func countsIncludeRefusedPointsButBoundsAndTimesOnlyValidOnes() throws {
        let document = """
            <gpx version="1.1">
              <wpt lat="10" lon="20"><time>2024-01-01T12:00:00Z</time></wpt>
              <wpt lat="x" lon="20"/>
              <rte><rtept lat="-5" lon="30"/><rtept lat="95" lon="0"/></rte>
              <trk><trkseg>
                <trkpt lat="1" lon="2"/>
                <trkpt lat="3" lon="4"><time>2024-01-01T10:00:00Z</time></trkpt>
                <trkpt lat="NaN" lon="4"><time>2024-01-01T09:00:00Z</time></trkpt>
              </trkseg><trkseg/></trk>
            </gpx>
            """
        var summary = GPXSummary()
        summary.add(try GPXReader.events(in: Array(document.utf8)))
        #expect(summary.version == "1.1")
        #expect((summary.tracks, summary.segments, summary.routes) == (1, 2, 1))
        #expect((summary.waypoints, summary.routePoints, summary.trackPoints) == (2, 2, 3))
        #expect(summary.timedTrackPoints == 1)
        #expect(summary.invalidPoints == 3)
        #expect(summary.bounds == GPXSummary.Bounds(minLatitude: -5, minLongitude: 2, maxLatitude: 10, maxLongitude: 30))
        #expect(summary.firstTrackPoint == GPXPoint(latitude: 1, longitude: 2, line: 6))
        #expect(summary.lastTrackPoint?.time == Timestamp(iso8601: "2024-01-01T10:00:00Z"))
        #expect(summary.earliestTime == Timestamp(iso8601: "2024-01-01T10:00:00Z"))
        #expect(summary.latestTime == Timestamp(iso8601: "2024-01-01T12:00:00Z"))
    }

    @Test func anEmptyDocumentHasNoBoundsNorPoints() throws {
        var summary = GPXSummary()
        summary.add(try GPXReader.events(in: Array("<gpx/>".utf8)))
        #expect(summary == GPXSummary())
    }
}
