import Foundation
import FoundationXML
import GeofenceKit
import Testing
@testable import LocationRouter

/// The page's structure: well-formed XHTML with inline SVG, every section and chart present, the map's shapes
/// where the report puts them, and nothing that a browser would fetch.
@Suite struct ReportPageTests {
    /// Element names, ids and attributes of a page, read by an XML parser (which fails on anything malformed).
    final class PageOutline: NSObject, XMLParserDelegate {
        var ids: [String] = []
        var elements: [String: Int] = [:]
        var attributes: [(element: String, name: String, value: String)] = []
        private var stack: [String] = []
        var childrenOf: [String: [String]] = [:]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            elements[name, default: 0] += 1
            if let id = attributes["id"] { ids.append(id) }
            for (key, value) in attributes { self.attributes.append((name, key, value)) }
            if let parent = stack.last { childrenOf[parent, default: []].append(name) }
            stack.append(attributes["id"] ?? name)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }
    }

    static func outline(_ page: String) throws -> PageOutline {
        let parser = XMLParser(data: Data(page.utf8))
        let outline = PageOutline()
        parser.delegate = outline
        let parsed = parser.parse()
        #expect(parsed, "not well-formed: \(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)")
        return outline
    }

    static func expectSelfContained(_ page: String) {
        for forbidden in ["http:", "https:", "<script", "src=", "href=", "url(", "@import", "<link", "<img", "<iframe"] {
            #expect(!page.contains(forbidden), "the page contains \(forbidden)")
        }
    }

    private func report(regions: [Region]? = nil) async throws -> RunReport {
        let walk = RandomWalkConfiguration(devices: 300, duration: 240, regions: .init(perDevice: 4))
        let configuration = SimulationConfiguration(source: .randomWalk(walk), regions: regions, seed: 11, shards: 2)
        var report = try await Simulation(configuration: configuration, sink: nil).run()
        report.thresholds = [
            try Threshold(parsing: "dropped == 0").evaluate(report), try Threshold(parsing: "updates < 10").evaluate(report),
        ]
        return report
    }

    @Test func aRunsPageHasEverySectionAndChart() async throws {
        let report = try await report()
        let page = try ReportPage.render(reportJSON: report.json)
        Self.expectSelfContained(page)
        let outline = try Self.outline(page)
        for id in [
            "summary", "map", "map-regions", "map-tracks", "map-events", "map-scale", "timeline", "wall-updates",
            "wall-events", "wall-latency", "wall-waits", "sim-updates", "sim-events", "sim-latency", "latency",
            "latency-histogram",
        ] {
            #expect(outline.ids.contains(id), "missing #\(id)")
        }
        let map = try #require(report.recording?.map)
        #expect(outline.childrenOf["map-regions"]?.filter { $0 == "circle" }.count == map.regions.count)
        #expect(outline.childrenOf["map-tracks"]?.count == map.tracks.count)
        #expect(outline.childrenOf["map-events"]?.count == map.events.count)
        #expect(outline.ids.filter { $0 == "title" }.count == 1)
        // Thresholds in colour: one passed row, one failed.
        #expect(outline.attributes.filter { $0.element == "tr" && $0.name == "class" && $0.value == "pass" }.count == 1)
        #expect(outline.attributes.filter { $0.element == "tr" && $0.name == "class" && $0.value == "fail" }.count == 1)
        #expect(page.contains("1 of 2 thresholds failed"))
        // No shared catalog: no selection or coverage row.
        #expect(!page.contains("<th>selection</th>") && !page.contains("<th>coverage</th>"))
    }

    /// A run that chose from a catalog shows its selection and coverage lines in the words of standard error's,
    /// before peak memory as there.
    @Test func theSummaryHasTheCatalogsLines() throws {
        let report = ReportFieldTableTests.report()
        let page = try ReportPage.render(reportJSON: report.json)
        let rows = report.summaryRows(eventsDestination: nil)
        let selection = try #require(rows.first { $0.label == "selection" }?.text)
        let coverage = try #require(rows.first { $0.label == "coverage" }?.text)
        #expect(coverage == "97.00 % of 300 catalog transitions reported (12 late), 9 missed")
        let cells = [selection, coverage].map { "<td>\($0)</td>" }
        let positions = try (cells + ["<th>peak memory</th>"]).map { try #require(page.range(of: $0), "\($0)").lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test func mapShapesLieWhereTheirCoordinatesAre() throws {
        let projection = try #require(
            MapProjection(minLat: 25.0, maxLat: 25.1, minLon: 121.5, maxLon: 121.6, width: 1000, maximumHeight: 900))
        let center = projection.point(latitude: 25.05, longitude: 121.55)
        #expect(abs(center.x - 500) < 1e-6 && abs(center.y - projection.height / 2) < 1e-6)
        // North is up, east is right; one kilometre is the same length both ways.
        let north = projection.point(latitude: 25.05 + 1_000 / 110_772.0, longitude: 121.55)
        let east = projection.point(latitude: 25.05, longitude: 121.55 + 1_000 / 100_950.0)
        #expect(north.y < center.y && abs(north.x - center.x) < 1e-9)
        #expect(east.x > center.x)
        #expect(abs((center.y - north.y) - (east.x - center.x)) / (east.x - center.x) < 0.01)
        #expect(abs((east.x - center.x) - 1_000 * projection.scale) / (1_000 * projection.scale) < 0.01)
        let bar = projection.scaleBar
        #expect(abs(bar.pixels - bar.metres * projection.scale) < 1e-9)
        #expect([1.0, 2, 5].contains { factor in
            (0...6).contains { abs(bar.metres - factor * pow(10, Double($0))) < 1e-6 }
        })
        // Every corner of the bounds is inside the drawing.
        for (lat, lon) in [(25.0, 121.5), (25.1, 121.6), (25.0, 121.6), (25.1, 121.5)] {
            let p = projection.point(latitude: lat, longitude: lon)
            #expect(p.x >= 0 && p.x <= projection.width && p.y >= 0 && p.y <= projection.height)
        }
    }

    @Test func regionFilePolygonsAndCirclesAreDrawn() async throws {
        let ring = [(25.02, 121.55), (25.02, 121.57), (25.04, 121.57), (25.04, 121.55), (25.02, 121.55)]
            .map { Coordinate(unchecked: $0.0, $0.1) }
        let regions = [
            Region(id: "square", geometry: .polygon(PolygonGeometry(polygons: [[ring]]))),
            Region(id: "circle <&>", geometry: .circle(CircleGeometry(center: Coordinate(unchecked: 25.05, 121.56), radius: 800))),
        ]
        let page = try ReportPage.render(reportJSON: try await report(regions: regions).json)
        let outline = try Self.outline(page)
        #expect(outline.childrenOf["map-regions"] == ["path", "circle"])
        #expect(page.contains("circle &lt;&amp;&gt;"))
    }

    @Test func aWallClockRateIsPerSecondOfTheTimeItsBucketLasted() {
        // A run of 0.3 s: its one bucket's updates are per 0.3 s, not per second.
        #expect(ReportPage.rateDivisors(offsets: [0], bucket: 1, perSecondOfWall: true, runSeconds: 0.3) == [0.3])
        #expect(ReportPage.rateDivisors(offsets: [0, 1, 2], bucket: 1, perSecondOfWall: true, runSeconds: 2.5) == [1, 1, 0.5])
        // Coarsened buckets of 4 s, the last one 1 s long; a report without its wall time keeps whole buckets.
        #expect(ReportPage.rateDivisors(offsets: [0, 4, 8], bucket: 4, perSecondOfWall: true, runSeconds: 9) == [4, 4, 1])
        #expect(ReportPage.rateDivisors(offsets: [0, 4, 8], bucket: 4, perSecondOfWall: true, runSeconds: nil) == [4, 4, 4])
        // Simulated time is counted per minute, whole buckets.
        #expect(ReportPage.rateDivisors(offsets: [0, 60], bucket: 60, perSecondOfWall: false, runSeconds: 61) == [1, 1])
        // A chart of one bucket spans one unit: distinct ticks, not "0" six times.
        let chart = SVGLineChart(
            id: "one", title: "t", xLabel: "s", yLabel: "u", x: [0], series: [.init(name: "u", colour: "#000", values: [5])])
        let ticks = chart.svg().components(separatedBy: "class=\"xtick\">").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(ticks.count > 1 && Set(ticks).count == ticks.count, "\(ticks)")
    }

    @Test func textWithABidirectionalOverrideIsIsolated() {
        // A device named with a right-to-left override would reverse the rest of its tooltip (": fired 3×").
        #expect(PageText.escape("bus\u{202E}71 <x>") == "\u{2068}bus\u{202E}71 &lt;x&gt;\u{2069}")
        #expect(PageText.escape("\u{2067}a") == "\u{2068}\u{2067}a\u{2069}")
        #expect(PageText.escape("bus 71 <x>") == "bus 71 &lt;x&gt;")
        #expect(PageText.escape("臺北車站 محطة") == "臺北車站 محطة")
    }

    @Test func aComparisonShowsProfilesSideBySideAndAScoreWhenPresent() throws {
        let tally = #"{"baseline":10,"profile":8,"matched":8,"missed":2,"added":0,"delayed":8,"early":0,"delaySeconds":{"mean":30,"min":1,"p50":25,"p90":60,"p99":90,"max":95}}"#
        func comparison(_ profile: String) -> String {
            #"{"profile":"\#(profile)","baseline":"exact","matchWindowSeconds":600,"enter":\#(tally),"exit":\#(tally),"dwell":\#(tally),"total":\#(tally),"state":{"baseline":0,"profile":0},"failed":{"baseline":0,"profile":0,"byCode":[]}}"#
        }
        let json = #"{"devices":5,"updates":100,"events":{"enter":10},"profile":"exact","comparison":[\#(comparison("ios")),\#(comparison("android"))],"profiles":{"exact":{"updates":100},"ios":{"updates":100},"android":{"updates":100}},"score":{"ios":{"recall":0.8,"precision":1},"android":{"recall":0.9,"precision":0.95}}}"#
        let page = try ReportPage.render(reportJSON: json)
        Self.expectSelfContained(page)
        let outline = try Self.outline(page)
        for id in ["comparison", "comparison-table", "comparison-counts", "comparison-delays", "profiles-table", "score-table"] {
            #expect(outline.ids.contains(id), "missing #\(id)")
        }
        #expect(page.contains(">recall<") && page.contains(">0.95<"))
        // A report without the page's keys still renders, and says what it lacks.
        #expect(page.contains("no map data"))
    }

    @Test func somethingThatIsNotAReportIsRefused() {
        #expect(throws: InputError.self) { try ReportPage.render(reportJSON: "[1,2]") }
        #expect(throws: InputError.self) { try ReportPage.render(reportJSON: "{\"devices\":") }
    }
}
