import GeofenceFormats
import GeofenceKit
import Testing

@testable import LocationRouter

/// A snapshot's device lines as this version writes them are read straight from their bytes
/// (`StateSnapshot.plainDevice`); every other line is left to the JSON tree, which gives the same device or the error.
@Suite struct PlainSnapshotLineTests {
    typealias Device = StateSnapshot.Device

    /// Devices with every field a line can hold, names that need escapes and numbers at their limits.
    static let devices: [Device] = [
        Device(name: "device-0", time: 1_795_248_020_000_000, latitude: 25.080704785660227, longitude: 121.5640213328024,
               regions: [.init(id: "device-0/r0", inside: false), .init(id: "device-0/r1", inside: true)], failed: []),
        Device(name: "bus \"17\" \\ é 🚌\t", time: -5, latitude: -90, longitude: 180,
               regions: [
                   .init(id: "quai\nnord", inside: true, pendingSince: 1_000_000, dwellDue: -7, appInside: false),
                   .init(id: "", inside: false, pendingSince: nil, dwellDue: 9_007_199_254_740_992, appInside: true),
               ],
               failed: ["a", "b\u{1}"], seq: 123_456_789, deliveredUntil: 0,
               chosen: DeviceState.Choice(latitude: 1e-300, longitude: -179.99999999999997, time: 42)),
        Device(name: "", time: 0, latitude: 0, longitude: -0.0, regions: [], failed: ["only"], seq: 1),
        Device(name: "5", time: 7, latitude: 89.99999999999999, longitude: .leastNonzeroMagnitude, regions: [],
               failed: [],
               deliveredUntil: -9_007_199_254_740_992),
    ]

    /// A device's line as the snapshot writes it.
    static func line(of device: Device) -> [UInt8] {
        let bytes = StateSnapshot(profile: "exact", devices: [device]).encoded()
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        return Array(lines[1])
    }

    static func plain(_ line: [UInt8]) -> Device? {
        line.withUnsafeBufferPointer(StateSnapshot.plainDevice)
    }

    static func general(_ line: [UInt8]) throws(InputError) -> Device {
        try StateSnapshot.device(try JSONParser.parse(line))
    }

    @Test(arguments: devices)
    func aWrittenLineReadsAsTheTreeReadsIt(device: Device) throws {
        let line = Self.line(of: device)
        let plain = try #require(Self.plain(line), "\(String(decoding: line, as: UTF8.self))")
        let general = try Self.general(line)
        #expect(plain == device)
        #expect(general == plain)
        // A zero's sign too (`==` does not see it).
        #expect(plain.longitude.sign == general.longitude.sign)
    }

    @Test func aLineWithCoverageIsLeftToTheTree() throws {
        var device = Self.devices[0]
        device.coverage = .init(inside: ["c1"], open: [.init(id: "c2", kind: .enter, time: 5)])
        let line = Self.line(of: device)
        #expect(Self.plain(line) == nil)
        #expect(try Self.general(line) == device)
        #expect(try StateSnapshot.decode(StateSnapshot(profile: "exact", devices: [device]).encoded()).devices == [device])
    }

    /// Valid lines laid out otherwise than this version writes them: the shortcut declines each, and the tree reads
    /// the device.
    @Test(arguments: [
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[],"failed":[] }"#,
        #"{"time":5,"device":"d","lat":1,"lon":2,"regions":[],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"failed":[],"regions":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[],"failed":[],"seq":null}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2}"#,
    ])
    func aLineLaidOutOtherwiseIsReadByTheTree(text: String) throws {
        let line = Array(text.utf8)
        #expect(Self.plain(line) == nil)
        let device = try Self.general(line)
        #expect(device == Device(name: "d", time: 5, latitude: 1, longitude: 2, regions: [], failed: []))
    }

    /// Numbers written otherwise (a fraction of zero, an exponent) are read as the tree reads them.
    @Test(arguments: [
        #"{"device":"d","time":5.0,"lat":1,"lon":2,"regions":[],"failed":[]}"#,
        #"{"device":"d","time":5e0,"lat":1.0,"lon":0.2E1,"regions":[],"failed":[],"seq":0}"#,
        #"{"device":"d","time":50e-1,"lat":100e-2,"lon":2,"regions":[],"failed":[],"seq":-3}"#,
    ])
    func numbersWrittenOtherwiseReadAsTheTreeReadsThem(text: String) throws {
        let line = Array(text.utf8)
        let plain = try #require(Self.plain(line))
        #expect(plain == Device(name: "d", time: 5, latitude: 1, longitude: 2, regions: [], failed: []))
        #expect(try Self.general(line) == plain)
    }

    /// Lines that are not valid device lines: the shortcut declines each, and the tree refuses it.
    @Test(arguments: [
        #"{"device":"d","time":5"lat":1,"lon":2,"regions":[],"failed":[]}"#,
        #"{"device":"d","time":05,"lat":1,"lon":2,"regions":[],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":91,"lon":2,"regions":[],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[],"failed":[]}x"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[{"id":"r","inside":true,}],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[],"failed":[],"color":"red"}"#,
        #"{"device":"d","time":5.5,"lat":1,"lon":2,"regions":[],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[{"id":"r","inside":1}],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[],"failed":[],"chosen":{"lat":1,"lon":200,"time":3}}"#,
        #"{"device":"d\#u{1}","time":5,"lat":1,"lon":2,"regions":[],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[{"id":"r\#u{1}","inside":true}],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[{"id":"r\x","inside":true}],"failed":[]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[],"failed":["f","g\#u{2}"]}"#,
        #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[],"failed":["f",3]}"#,
        #"{"device":"d","time":5,"lat":1e999,"lon":2,"regions":[],"failed":[]}"#,
    ])
    func aBadLineIsLeftToTheTreeWhichRefusesIt(text: String) {
        let line = Array(text.utf8)
        #expect(Self.plain(line) == nil)
        #expect(throws: InputError.self) { try Self.general(line) }
    }

    @Test func invalidUTF8IsLeftToTheTree() {
        var line = Array(#"{"device":"d?","time":5,"lat":1,"lon":2,"regions":[],"failed":[]}"#.utf8)
        line[12] = 0xFF
        #expect(Self.plain(line) == nil)
        #expect(throws: InputError.self) { try Self.general(line) }
        // In a region's name too.
        var inRegion = Array(
            #"{"device":"d","time":5,"lat":1,"lon":2,"regions":[{"id":"r?","inside":true}],"failed":[]}"#.utf8)
        inRegion[inRegion.firstIndex(of: UInt8(ascii: "?"))!] = 0xFF
        #expect(Self.plain(inRegion) == nil)
        #expect(throws: InputError.self) { try Self.general(inRegion) }
    }
}
