import GeofenceKit
import Testing
@testable import LocationRouter

/// Encoding a batch at once (as the dispatcher does) gives the bytes of encoding its events one by one, whatever
/// the kinds, names and times; and the text of event times through the encoder's date cache is ``Timestamp/iso8601``'s.
@Suite struct EventBatchEncodingTests {
    /// Events of every kind, on times in order with several per second, across midnight and before 1970.
    static func mixedEvents(count: Int, seed: UInt64) -> [GeofenceEvent] {
        var rng = SplitMix64(seed: seed)
        var time: Int64 = -86_400_000_000 - 3_000_000
        return (0..<count).map { index in
            time += Int64(rng.next() % 700_000) * (rng.next() % 3 == 0 ? 0 : 1)
            let kind = EventKind.allCases[Int(rng.next() % UInt64(EventKind.allCases.count))]
            var event = GeofenceEvent(
                device: Int32(rng.next() % 50), region: Int32(rng.next() % 1_000), kind: kind,
                time: Timestamp(microseconds: time), latitude: rng.uniform(-90...90), longitude: rng.uniform(-180...180),
                inside: rng.next() & 1 == 0, failure: kind == .failed ? .tooManyRegions : nil, code: 5)
            if index % 7 == 0 { event.detectedAt = Timestamp(microseconds: time - 20_000_000) }
            if index % 5 == 0 { event.condition = .satisfied }
            return event
        }
    }

    @Test(arguments: [RegionNames.generated(perDevice: 20), .catalog, .listed((0..<1_000).map { "zone \"\($0)\"" })])
    func aBatchEncodesAsItsEventsOneByOne(regions: RegionNames) {
        let registry = DeviceRegistry()
        for device in 0..<50 { _ = registry.append("bus-\(device)\n") }
        for devices in [DeviceNames.generated, .registry(registry)] {
            let events = Self.mixedEvents(count: 3_000, seed: 31)
            var single = EventEncoder(deviceNames: devices, regionNames: regions)
            var batched = EventEncoder(deviceNames: devices, regionNames: regions)
            var one: [UInt8] = Array("prefix\n".utf8)
            var all: [UInt8] = Array("prefix\n".utf8)
            for event in events { single.encode(event, into: &one) }
            // Batches of several sizes, the largest over the 8 KiB scratch buffer.
            var start = 0
            for size in [1, 2, 17, 100, 400, 2_480] {
                batched.encode(Array(events[start..<start + size]), into: &all)
                start += size
            }
            #expect(start == events.count)
            #expect(String(decoding: all, as: UTF8.self) == String(decoding: one, as: UTF8.self))
            #expect(one.filter { $0 == UInt8(ascii: "\n") }.count == events.count + 1)
        }
    }

    @Test func aLongNameLongerThanTheScratchBufferIsWrittenWhole() {
        let name = String(repeating: "n", count: 20_000)
        var encoder = EventEncoder(deviceNames: .generated, regionNames: .listed([name]))
        let event = GeofenceEvent(device: 1, region: 0, kind: .enter, time: Timestamp(microseconds: 0), latitude: 1, longitude: 2)
        var bytes: [UInt8] = []
        encoder.encode([event, event], into: &bytes)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("\"\(name)\"") })
    }

    /// Names of lengths around what a line's scratch buffer leaves after its bounded pieces, in one batch: every
    /// line whole, in order, as encoded one by one.
    @Test func namesNearTheScratchBuffersSizeAreWrittenWhole() {
        let lengths = [1, 7_000, 7_679, 7_680, 7_681, 8_000, 8_191, 8_192, 8_193, 3]
        let names = lengths.map { String(repeating: "r", count: $0) }
        var single = EventEncoder(deviceNames: .generated, regionNames: .listed(names))
        var batched = single
        let events = (0..<40).map { i in
            GeofenceEvent(
                device: Int32(i % 3), region: Int32(i % names.count), kind: .state,
                time: Timestamp(microseconds: Int64(i) * 1_234_567), latitude: -33.86881234567891,
                longitude: 151.20929876543211, inside: true)
        }
        var one: [UInt8] = []
        for event in events { single.encode(event, into: &one) }
        var all: [UInt8] = []
        batched.encode(events, into: &all)
        #expect(all == one)
        #expect(String(decoding: all, as: UTF8.self).split(separator: "\n").count == events.count)
    }

    @Test func eachKindsEventFieldNamesItAsItsDescription() {
        for kind in EventKind.allCases {
            #expect(EventEncoder.eventField(of: kind).description == #","event":"\#(kind.description)""#)
        }
    }

    @Test func cachedTimeTextIsTheTimestampsOwn() {
        var rng = SplitMix64(seed: 32)
        var cache = TimestampTextCache()
        var times: [Int64] = [.min, .min + 1, .max, -1, 0, 1, 999_999, 1_000_000, -1_000_000, -1_000_001]
        var time: Int64 = -62_167_219_200_000_000
        for _ in 0..<20_000 {
            // Mostly on the same day, back and forth within it, sometimes days or years ahead.
            switch rng.next() % 8 {
            case 0: time += Int64(rng.next() % 10_000_000_000_000)
            case 1: time += Int64(rng.next() % 200_000_000_000)
            case 2, 3: time += Int64(rng.next() % 2_000_000) - 1_000_000  // within a second or its neighbours
            default: time += Int64(rng.next() % 20_000_000_000) - 10_000_000_000
            }
            times.append(time)
        }
        var buffer = [UInt8](repeating: 0, count: TimestampTextCache.room)
        for microseconds in times {
            let timestamp = Timestamp(microseconds: microseconds)
            let length = buffer.withUnsafeMutableBufferPointer { cache.write(timestamp, at: $0.baseAddress!) }
            #expect(String(decoding: buffer[..<length], as: UTF8.self) == timestamp.iso8601)
        }
    }
}
