import Foundation
import GeofenceKit
import GeofenceFormats

extension ReportPage {
    /// The map: regions shaded by how often they fired, the sampled devices' tracks and their events.
    static func mapSection(_ report: JSONValue) -> String {
        guard let map = report["map"] else {
            return section("map", "Map", "<p class=\"note\">This report has no map data (a merged report, or one written by an older version, carries none).</p>")
        }
        let regions = map["regions"]?.items ?? []
        let tracks = map["tracks"]?.items ?? []
        let events = map["events"]?.items ?? []
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        func include(_ lat: Double?, _ lon: Double?, radius: Double = 0) {
            guard let lat, let lon, lat.isFinite, lon.isFinite else { return }
            let dLat = radius / 111_000
            let dLon = radius / max(1, 111_000 * cos(lat * .pi / 180))
            minLat = min(minLat, lat - dLat); maxLat = max(maxLat, lat + dLat)
            minLon = min(minLon, lon - dLon); maxLon = max(maxLon, lon + dLon)
        }
        for region in regions {
            include(region["lat"]?.doubleValue, region["lon"]?.doubleValue, radius: region.number("radiusMetres"))
            for polygon in region["polygonsLonLat"]?.items ?? [] {
                for point in polygon[0]?.items ?? [] { include(point[1]?.doubleValue, point[0]?.doubleValue) }
            }
        }
        for track in tracks {
            for point in track["latLonSeconds"]?.items ?? [] { include(point[0]?.doubleValue, point[1]?.doubleValue) }
        }
        for event in events { include(event["lat"]?.doubleValue, event["lon"]?.doubleValue) }
        guard let projection = MapProjection(
            minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: maxLon, width: 1200, maximumHeight: 900)
        else {
            return section("map", "Map", "<p class=\"note\">Nothing to draw: no region, track or event was recorded.</p>")
        }
        let maxFired = regions.compactMap { $0["fired"]?.doubleValue }.max() ?? 0
        var svg = "<svg class=\"map\" id=\"map\" viewBox=\"0 0 \(Int(projection.width)) \(Int(projection.height))\" "
        svg += "width=\"\(Int(projection.width))\" height=\"\(Int(projection.height))\" role=\"img\">"
        svg += "<title>Regions, sampled tracks and events</title>\n"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(Int(projection.width))\" height=\"\(Int(projection.height))\" class=\"map-ground\"/>\n"
        svg += "<g id=\"map-regions\">\n"
        for region in regions {
            let fired = region["fired"]?.doubleValue
            let opacity = fired.map { maxFired > 0 ? 0.02 + 0.28 * log1p($0) / log1p(maxFired) : 0.02 } ?? 0.06
            let name = region["id"]?.stringValue ?? ""
            let tooltip = "<title>\(PageText.escape(name))\(fired.map { ": fired \(PageText.grouped($0))×" } ?? "")</title>"
            let style = "class=\"region\" fill-opacity=\"\(PageText.decimal(opacity, 3))\""
            if let lat = region["lat"]?.doubleValue, let lon = region["lon"]?.doubleValue {
                let p = projection.point(latitude: lat, longitude: lon)
                let r = max(0.8, region.number("radiusMetres") * projection.scale)
                svg += "<circle \(style) cx=\"\(SVGNumber.format(p.x))\" cy=\"\(SVGNumber.format(p.y))\" r=\"\(SVGNumber.format(r))\">\(tooltip)</circle>\n"
            } else if let polygons = region["polygonsLonLat"]?.items {
                var d = ""
                for polygon in polygons {
                    for ring in polygon.items {
                        for (i, point) in ring.items.enumerated() {
                            let p = projection.point(latitude: point[1]?.doubleValue ?? 0, longitude: point[0]?.doubleValue ?? 0)
                            d += (i == 0 ? "M" : "L") + SVGNumber.format(p.x) + "," + SVGNumber.format(p.y)
                        }
                        d += "Z"
                    }
                }
                svg += "<path \(style) fill-rule=\"evenodd\" d=\"\(d)\">\(tooltip)</path>\n"
            }
        }
        svg += "</g>\n<g id=\"map-tracks\">\n"
        for (index, track) in tracks.enumerated() {
            var d = ""
            for (i, point) in (track["latLonSeconds"]?.items ?? []).enumerated() {
                let p = projection.point(latitude: point[0]?.doubleValue ?? 0, longitude: point[1]?.doubleValue ?? 0)
                d += (i == 0 ? "M" : "L") + SVGNumber.format(p.x) + "," + SVGNumber.format(p.y)
            }
            guard !d.isEmpty else { continue }
            svg += "<path class=\"track\" stroke=\"\(PageColours.cycled(index))\" d=\"\(d)\"><title>\(PageText.escape(track["device"]?.stringValue ?? ""))</title></path>\n"
        }
        svg += "</g>\n<g id=\"map-events\">\n"
        var kindCounts: [String: Int] = [:]
        for event in events {
            guard let lat = event["lat"]?.doubleValue, let lon = event["lon"]?.doubleValue else { continue }
            let kind = event["event"]?.stringValue ?? ""
            kindCounts[kind, default: 0] += 1
            let p = projection.point(latitude: lat, longitude: lon)
            let tooltip = "<title>\(PageText.escape("\(kind) · \(event["device"]?.stringValue ?? "") · \(event["region"]?.stringValue ?? "")"))</title>"
            svg += "<circle class=\"marker\" data-kind=\"\(PageText.escape(kind))\" cx=\"\(SVGNumber.format(p.x))\" cy=\"\(SVGNumber.format(p.y))\" r=\"3.2\" fill=\"\(PageColours.event(kind))\">\(tooltip)</circle>\n"
        }
        svg += "</g>\n"
        let bar = projection.scaleBar
        let barY = projection.height - 18
        svg += "<g id=\"map-scale\"><rect x=\"14\" y=\"\(Int(barY) - 16)\" width=\"\(Int(bar.pixels) + 60)\" height=\"26\" class=\"map-label-ground\"/>"
        svg += "<path class=\"scale-bar\" d=\"M20,\(Int(barY) - 4)V\(Int(barY))H\(SVGNumber.format(20 + bar.pixels))V\(Int(barY) - 4)\"/>"
        svg += "<text x=\"\(SVGNumber.format(26 + bar.pixels))\" y=\"\(Int(barY) + 1)\" class=\"map-text\">\(bar.label)</text></g>\n"
        svg += "<text x=\"\(Int(projection.width) - 24)\" y=\"34\" class=\"map-north\">N ↑</text>\n</svg>\n"

        let kinds = ["enter", "exit", "dwell", "state", "failed"].filter { kindCounts[$0] != nil }
        var legend = "<ul class=\"legend-list\">"
        for kind in kinds {
            legend += "<li><span class=\"swatch dot\" style=\"background:\(PageColours.event(kind))\"></span>\(kind) \(PageText.grouped(Double(kindCounts[kind] ?? 0)))</li>"
        }
        legend += "<li><span class=\"swatch\" style=\"background:#ef6c00;opacity:0.1\"></span>region, rarely fired</li>"
        legend += "<li><span class=\"swatch\" style=\"background:#ef6c00;opacity:0.3\"></span>region, fired most (\(PageText.grouped(maxFired))×)</li></ul>"
        let sampled = "\(PageText.grouped(Double(tracks.count))) of \(PageText.grouped(map.number("devicesTotal"))) devices"
        let source =
            switch map["regionsSource"]?.stringValue {
            case "sampledDevices": "the generated regions of the first sampled devices"
            case "sampledDevicesCatalog": "the generated catalog's regions the sampled devices fired, the most fired first"
            default: "regions of the file, the most fired first"
            }
        let note = """
            <p class="note">Tracks of \(sampled) (a seeded sample, seed \(PageText.escape(map["sampleSeed"]?.numberText ?? "?")); \
            thinned to at most \(PageText.grouped(Double(tracks.map { $0["latLonSeconds"]?.items.count ?? 0 }.max() ?? 0))) points each) \
            and their first events; \(PageText.grouped(Double(regions.count))) of \(PageText.grouped(map.number("regionsTotal"))) regions \
            (\(source)), shaded by how often they fired (enter, exit, dwell). Local projection centred on \
            \(PageText.decimal(projection.centerLatitude, 4)), \(PageText.decimal(projection.centerLongitude, 4)); north up.</p>
            """
        return section("map", "Map", legend + "<div class=\"map-frame\">" + svg + "</div>" + note)
    }
}
