import Foundation
import GeofenceKit
import Synchronization
@testable import LocationRouter

/// A sink that keeps what it is given, optionally slowly (to exercise back-pressure).
final class CollectingSink: EventSink {
    private let bytes = Mutex<[UInt8]>([])
    private let writes = Atomic<Int>(0)
    private let delayNanoseconds: UInt64

    init(delayNanoseconds: UInt64 = 0) { self.delayNanoseconds = delayNanoseconds }

    func write(_ chunk: [UInt8]) async throws {
        if delayNanoseconds > 0 { try await Task.sleep(nanoseconds: delayNanoseconds) }
        bytes.withLock { $0 += chunk }
        writes.add(1, ordering: .relaxed)
    }

    func close() async throws {}

    var writeCount: Int { writes.load(ordering: .relaxed) }
    var lines: [String] { String(decoding: bytes.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init) }

    /// Lines grouped by their `device`, each group in output order.
    var linesByDevice: [String: [String]] { Self.group(lines) }

    static func group(_ lines: [String]) -> [String: [String]] {
        var groups: [String: [String]] = [:]
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            groups[object?["device"] as? String ?? "?", default: []].append(line)
        }
        return groups
    }
}

/// The plain, single-threaded evaluation the pipeline must agree with: exact geodesic distances for circles,
/// first sample silent, then enter/exit on every change. It shares no code with the monitor but the geodesic.
struct ReferenceEvaluator {
    var inside: [Int32: [Bool]] = [:]

    mutating func evaluate(
        device: Int32, latitude: Double, longitude: Double, time: Timestamp, regions: [MonitoredRegion],
        into events: inout [GeofenceEvent]
    ) {
        let now = regions.map { region -> Bool in
            guard case .circle(let circle) = region.geometry else {
                return region.geometry.contains(latitude: latitude, longitude: longitude)
            }
            return Geodesic.distance(
                latitude1: circle.center.latitude, longitude1: circle.center.longitude, latitude2: latitude,
                longitude2: longitude) <= circle.radius
        }
        defer { inside[device] = now }
        guard let before = inside[device] else { return }
        for (k, region) in regions.enumerated() where now[k] != before[k] {
            if now[k] ? region.notifyOnEntry : region.notifyOnExit {
                events.append(
                    GeofenceEvent(
                        device: device, region: region.id, kind: now[k] ? .enter : .exit, time: time,
                        latitude: latitude, longitude: longitude))
            }
        }
    }
}

/// A file holding `text` in `folder` (a test's ``temporaryDirectory()``, which the test removes).
func temporaryFile(_ text: String, in folder: String) throws -> String {
    let path = folder + "/input.ndjson"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}
