import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter
import GeofenceFormats

/// Acceptance: on real recorded GPX tracks streamed in as NDJSON, with GeoJSON regions built around them, the
/// pipeline's events under the `exact` profile equal those of an independent reference (geographiclib for circles,
/// an exact even-odd test for polygons), including points within a centimetre or a millimetre of a boundary.
///
/// The fixtures are made by `Fixtures/reference/make-reference.py`; see the README beside it.
@Suite struct ReferenceTrackTests {
    /// One event as compared: everything but the device, which the events are grouped by.
    struct Event: Equatable, CustomStringConvertible {
        var region: String
        var event: String
        var time: Date
        var latitude: Double
        var longitude: Double

        var description: String { "\(event) \(region) at \(time.timeIntervalSince1970) (\(latitude), \(longitude))" }
    }

    static let fixtureDirectory = "Fixtures/reference"

    static func fixture(_ name: String, _ fileExtension: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: fileExtension, subdirectory: fixtureDirectory))
    }

    static func lines(of url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// Event lines grouped by device, each group in line order.
    static func eventsByDevice(_ lines: [String]) throws -> [String: [Event]] {
        var events: [String: [Event]] = [:]
        for line in lines {
            let object = try object(line)
            let device = try #require(object["device"] as? String, "no device: \(line)")
            let time = try #require((object["time"] as? String).flatMap(date), "bad time: \(line)")
            events[device, default: []].append(
                Event(
                    region: try #require(object["region"] as? String, "no region: \(line)"),
                    event: try #require(object["event"] as? String, "no event: \(line)"),
                    time: time,
                    latitude: try #require((object["lat"] as? NSNumber)?.doubleValue, "no lat: \(line)"),
                    longitude: try #require((object["lon"] as? NSNumber)?.doubleValue, "no lon: \(line)")))
        }
        return events
    }

    /// A region built so that a given track point lies just inside or outside it, or exactly on its boundary.
    struct BoundaryCase {
        var region: String
        var device: String
        var event: Event
        /// Geodesic distance minus radius (metres), for circles.
        var offset: Double?
        /// `edge` or `vertex`, for polygons.
        var on: String?
    }

    static func boundaryCases() throws -> [BoundaryCase] {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: fixture("regions", "geojson"))) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        return try features.compactMap { feature -> BoundaryCase? in
            guard let properties = feature["properties"] as? [String: Any],
                let boundaryCase = properties["boundaryCase"] as? [String: Any]
            else { return nil }
            let region = try #require(feature["id"] as? String)
            return BoundaryCase(
                region: region,
                device: try #require(boundaryCase["device"] as? String),
                event: Event(
                    region: region, event: try #require(boundaryCase["event"] as? String),
                    time: try #require((boundaryCase["time"] as? String).flatMap(date)),
                    latitude: try #require((boundaryCase["lat"] as? NSNumber)?.doubleValue),
                    longitude: try #require((boundaryCase["lon"] as? NSNumber)?.doubleValue)),
                offset: (boundaryCase["offset"] as? NSNumber)?.doubleValue,
                on: boundaryCase["on"] as? String)
        }
    }

    /// Runs the pipeline as `location-router --source stdin --regions regions.geojson` does.
    static func run(shards: Int) async throws -> (RunReport, CollectingSink) {
        let samples = try fixture("samples", "ndjson")
        let regions = try GeoJSONRegionDecoder.decode(Array(Data(contentsOf: fixture("regions", "geojson"))))
        let descriptor = open(samples.path, O_RDONLY)
        try #require(descriptor >= 0, "cannot open \(samples.path)")
        defer { close(descriptor) }
        let input = SampleInput(descriptor: descriptor, name: "samples.ndjson")
        let configuration = SimulationConfiguration(source: .samples(input), regions: regions, shards: shards)
        let sink = CollectingSink()
        return (try await Simulation(configuration: configuration, sink: sink).run(), sink)
    }

    @Test(arguments: [1, 3])
    func eventsOnRealTracksEqualTheReference(shards: Int) async throws {
        let expectedLines = try Self.lines(of: Self.fixture("expected-events", "ndjson"))
        let sampleCount = try Self.lines(of: Self.fixture("samples", "ndjson")).count
        let expected = try Self.eventsByDevice(expectedLines)
        let (report, sink) = try await Self.run(shards: shards)
        let produced = try Self.eventsByDevice(sink.lines)

        #expect(report.updates == sampleCount)
        #expect(report.rejectedTotal == 0)
        #expect(report.dropped == 0)
        #expect(report.eventsEmitted == expectedLines.count)
        #expect(sink.lines.count == expectedLines.count)
        #expect(Set(produced.keys) == Set(expected.keys))
        for device in Set(expected.keys).union(produced.keys).sorted() {
            let want = expected[device] ?? [], got = produced[device] ?? []
            guard want != got else { continue }
            // Name the first difference rather than dumping hundreds of events.
            let index = (0..<min(want.count, got.count)).first { want[$0] != got[$0] } ?? min(want.count, got.count)
            Issue.record(
                """
                \(device): \(got.count) events, expected \(want.count); first difference at #\(index): \
                got \(index < got.count ? got[index].description : "nothing"), \
                expected \(index < want.count ? want[index].description : "nothing")
                """)
        }

        // The events that hinge on the near-boundary points were produced, at those points.
        for boundaryCase in try Self.boundaryCases() {
            #expect(
                produced[boundaryCase.device]?.contains(boundaryCase.event) == true,
                "\(boundaryCase.region): no \(boundaryCase.event)")
        }
    }

    /// The comparison above is not vacuous: the fixture holds many events on several devices, and events that
    /// hinge on points 1 cm and 1–2 mm inside and outside circles and exactly on polygon edges and vertices.
    @Test func theFixtureReallyProbesTheBoundary() throws {
        let expected = try Self.eventsByDevice(try Self.lines(of: Self.fixture("expected-events", "ndjson")))
        #expect(expected.count == 4)
        #expect(expected.values.allSatisfy { $0.count >= 40 })
        #expect(expected.values.allSatisfy { events in Set(events.map(\.event)) == ["enter", "exit"] })

        let cases = try Self.boundaryCases()
        #expect(cases.count == 20)
        #expect(Set(cases.compactMap(\.offset)) == [-0.01, 0.01, -0.001, 0.002])
        #expect(Set(cases.compactMap(\.on)) == ["edge", "vertex"])
        for boundaryCase in cases {
            // Each designed point causes an event in the reference: the decision at that point matters.
            #expect(
                expected[boundaryCase.device]?.contains(boundaryCase.event) == true,
                "\(boundaryCase.region): the reference has no \(boundaryCase.event)")
        }

        // The circles really pass within a centimetre or a millimetre of their point.
        let regions = try GeoJSONRegionDecoder.decode(Array(Data(contentsOf: Self.fixture("regions", "geojson"))))
        for boundaryCase in cases {
            guard let offset = boundaryCase.offset else { continue }
            let region = try #require(regions.first { $0.id == boundaryCase.region })
            guard case .circle(let circle) = region.geometry else {
                Issue.record("\(region.id) is not a circle")
                continue
            }
            let distance = Geodesic.distance(
                latitude1: circle.center.latitude, longitude1: circle.center.longitude,
                latitude2: boundaryCase.event.latitude, longitude2: boundaryCase.event.longitude)
            #expect(abs(distance - circle.radius - offset) < 1e-5, "\(region.id): \(distance - circle.radius) m")
            #expect(region.devices == [boundaryCase.device])
        }
    }
}
