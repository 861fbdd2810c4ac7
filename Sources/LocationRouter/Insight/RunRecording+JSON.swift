import GeofenceKit

extension RunRecording {
    /// The report's keys for the page, in order: `timeline`, `latencyHistogram`, `map`.
    var jsonPairs: [(String, String)] {
        [
            ("timeline", JSONText.object([
                ("wallClock", Self.json(wallClock, unitSeconds: 1e-9, isSampleTime: false)),
                ("simulated", Self.json(simulated, unitSeconds: 1e-6, isSampleTime: true)),
            ])),
            ("latencyHistogram", latencyJSON),
            ("map", map.json),
        ]
    }

    /// Columns of equal length, one entry per bucket that holds anything, in time order.
    static func json(_ series: TimeSeries, unitSeconds: Double, isSampleTime: Bool) -> String {
        let rows = series.sorted
        // Sample-time buckets are offsets from the first one's start (`start`); wall-clock ones from the run's.
        let origin = isSampleTime ? rows.first?.start ?? 0 : 0
        func column(_ value: (TimeSeries.Bucket) -> String) -> String { "[" + rows.map { value($0.bucket) }.joined(separator: ",") + "]" }
        let kinds = EventKind.allCases.map { kind in
            (kind.description, column { String($0.events[kind.rawValue]) })
        }
        var pairs: [(String, String)] = [("bucketSeconds", JSONText.number(Double(series.width) * unitSeconds))]
        if isSampleTime {
            pairs.append(("start", JSONText.string(Timestamp(microseconds: origin).iso8601)))
        }
        pairs += [
            ("offsetSeconds", "[" + rows.map { JSONText.number(Double($0.start - origin) * unitSeconds) }.joined(separator: ",") + "]"),
            ("updates", column { String($0.updates) }),
            ("events", JSONText.object(kinds)),
            ("latencyP50Ms", column { $0.latency.count > 0 ? JSONText.number(Double($0.latency.quantile(0.5)) / 1e6) : "null" }),
            ("latencyP99Ms", column { $0.latency.count > 0 ? JSONText.number(Double($0.latency.quantile(0.99)) / 1e6) : "null" }),
            ("backPressureWaits", column { String($0.backPressureWaits) }),
        ]
        return JSONText.object(pairs)
    }

    var latencyJSON: String {
        let buckets = latency.buckets
        return JSONText.object([
            ("lowerMs", "[" + buckets.map { JSONText.number(Double($0.lower) / 1e6) }.joined(separator: ",") + "]"),
            ("upperMs", "[" + buckets.map { JSONText.number(Double($0.upper) / 1e6) }.joined(separator: ",") + "]"),
            ("counts", "[" + buckets.map { String($0.count) }.joined(separator: ",") + "]"),
        ])
    }
}

extension RunMap {
    /// `{"regions": […], "tracks": […], "events": […], …}`: coordinates in degrees (6 decimals, ~0.1 m), times
    /// as seconds after `start`, polygon rings as GeoJSON `[lon, lat]` pairs.
    var json: String {
        func degrees(_ value: Double) -> String { JSONText.fixed(value, decimals: 6) }
        let regionObjects = regions.map { region -> String in
            var pairs: [(String, String)] = [("id", JSONText.string(region.id))]
            switch region.geometry {
            case .circle(let circle):
                pairs += [
                    ("lat", degrees(circle.center.latitude)), ("lon", degrees(circle.center.longitude)),
                    ("radiusMetres", JSONText.number(circle.radius)),
                ]
            case .polygon(let polygon):
                let polygons = polygon.polygons.map { rings in
                    "[" + rings.map { ring in
                        "[" + Self.thinned(ring).map { "[\(degrees($0.longitude)),\(degrees($0.latitude))]" }.joined(separator: ",") + "]"
                    }.joined(separator: ",") + "]"
                }
                pairs.append(("polygonsLonLat", "[" + polygons.joined(separator: ",") + "]"))
            }
            pairs.append(("fired", region.fired.map(String.init) ?? "null"))
            return JSONText.object(pairs)
        }
        let trackObjects = tracks.map { track in
            let points = track.latitudes.indices.map {
                "[\(degrees(track.latitudes[$0])),\(degrees(track.longitudes[$0])),\(JSONText.number(track.seconds[$0]))]"
            }
            return JSONText.object([
                ("device", JSONText.string(track.device)), ("latLonSeconds", "[" + points.joined(separator: ",") + "]"),
            ])
        }
        let eventObjects = events.map { event in
            JSONText.object([
                ("event", JSONText.string(event.kind.description)), ("device", JSONText.string(event.device)),
                ("region", JSONText.string(event.region)), ("lat", degrees(event.latitude)),
                ("lon", degrees(event.longitude)), ("seconds", JSONText.number(event.seconds)),
            ])
        }
        return JSONText.object([
            ("start", JSONText.string(start.iso8601)),
            ("regionsTotal", String(regionsTotal)),
            ("regionsSource", JSONText.string(regionsSource)),
            ("regions", "[" + regionObjects.joined(separator: ",") + "]"),
            ("devicesTotal", String(devicesTotal)),
            ("sampleSeed", String(seed)),
            ("tracks", "[" + trackObjects.joined(separator: ",") + "]"),
            ("events", "[" + eventObjects.joined(separator: ",") + "]"),
        ])
    }

    /// A ring with at most 256 vertices (every k-th, the closing vertex kept).
    static func thinned(_ ring: [Coordinate]) -> [Coordinate] {
        guard ring.count > 256 else { return ring }
        let step = (ring.count + 255) / 256
        var kept = stride(from: 0, to: ring.count - 1, by: step).map { ring[$0] }
        if let last = ring.last { kept.append(last) }
        return kept
    }
}

/// Small JSON text builders for the report.
enum JSONText {
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
    static func string(_ text: String) -> String { EventEncoder.jsonLiteral(text) }
    static func number(_ value: Double) -> String { value.isFinite ? format3(value) : "null" }
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        let scale = pow10(decimals)
        let scaled = (value * scale).rounded()
        guard abs(scaled) < 9e15 else { return String(value) }
        let whole = Int64(scaled)
        let sign = whole < 0 ? "-" : ""
        let magnitude = whole.magnitude
        let integer = magnitude / UInt64(scale)
        var fraction = String(magnitude % UInt64(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(integer) + (fraction.isEmpty ? "" : "." + fraction)
    }
    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { acc, _ in acc * 10 } }
}
