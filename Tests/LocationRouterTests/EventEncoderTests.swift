import GeofenceKit
import Testing
@testable import LocationRouter

@Suite struct EventEncoderTests {
    static func line(_ event: GeofenceEvent, devices: DeviceNames = .generated, regions: RegionNames = .generated(perDevice: 20)) -> String {
        var encoder = EventEncoder(deviceNames: devices, regionNames: regions)
        var bytes: [UInt8] = []
        encoder.encode(event, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [(Int32(0), Int32(0), "device-0", "device-0/r0"), (42, 847, "device-42", "device-42/r7"), (1_999_999, 39_999_999, "device-1999999", "device-1999999/r19")])
    func generatedNamesAreWrittenFromTheirNumbers(device: Int32, region: Int32, deviceName: String, regionName: String) {
        let event = GeofenceEvent(device: device, region: region, kind: .enter, time: Timestamp(microseconds: 1_795_248_042_500_000), latitude: 25.0478, longitude: 121.517)
        #expect(Self.line(event) == #"{"device":"\#(deviceName)","region":"\#(regionName)","event":"enter","time":"2026-11-21T08:00:42.5Z","lat":25.0478,"lon":121.517,"seq":1}"# + "\n")
        // The same names as the tables that name devices and regions elsewhere.
        #expect(DeviceNames.generated.name(of: device) == deviceName)
        #expect(RegionNames.generated(perDevice: 20).name(of: region) == regionName)
    }

    @Test func numberedNamesAreTheTextOfAnInterpolation() {
        var rng = SplitMix64(seed: 3)
        let edges: [Int32] = [0, 1, 9, 10, 19, 20, 99, 100, 999_999, 1_000_000, Int32.max - 1, Int32.max, -1, -20, Int32.min]
        let drawn = (0..<2_000).map { _ in Int32(truncatingIfNeeded: rng.next()) >> Int32(rng.next() % 31) }
        for index in edges + drawn {
            #expect(DeviceNames.generated.name(of: index) == "device-\(index)")
            #expect(RegionNames.catalog.name(of: index) == "catalog-\(index)")
            for perDevice in [1, 7, 20, 100] {
                #expect(
                    RegionNames.generated(perDevice: perDevice).name(of: index)
                        == "device-\(Int(index) / perDevice)/r\(Int(index) % perDevice)")
            }
        }
        #expect(NumberedName.make("x", Int.min, "y", Int.max) == "x\(Int.min)y\(Int.max)")
    }

    /// A generated region's owner: the event's device (its digits written again), another device (written from its
    /// number), or one past eight digits (written digit by digit).
    @Test(arguments: [
        (7, 7 * 20 + 19, 20, "device-7/r19"), (7, 12 * 20 + 3, 20, "device-12/r3"), (12_345, 0, 20, "device-0/r0"),
        (0, 12_345 * 20, 20, "device-12345/r0"), (3, 123_456_789, 1, "device-123456789/r0"),
    ] as [(Int32, Int32, Int, String)])
    func aGeneratedRegionIsNamedAfterTheDeviceItBelongsTo(device: Int32, region: Int32, perDevice: Int, name: String) {
        let event = GeofenceEvent(device: device, region: region, kind: .exit, time: Timestamp(microseconds: 0), latitude: 1.5, longitude: 2)
        #expect(Self.line(event, regions: .generated(perDevice: perDevice)) == #"{"device":"device-\#(device)","region":"\#(name)","event":"exit","time":"1970-01-01T00:00:00Z","lat":1.5,"lon":2.0,"seq":1}"# + "\n")
        #expect(RegionNames.generated(perDevice: perDevice).name(of: region) == name)
    }

    /// Device numbers, region indices and `seq` of every digit count, written in one store up to eight digits and
    /// digit by digit beyond (a restored `seq` continuing past eight digits): the text of `String(_:)`. (The `seq`
    /// table has an entry for every device up to the largest: a device number past a million would take megabytes.)
    @Test func numbersOfEveryLengthAreWrittenWhole() {
        let devices: [Int32] = [9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000, 999_999, 1_000_000]
        for device in devices {
            var encoder = EventEncoder(
                deviceNames: .generated, regionNames: .generated(perDevice: 1_000), restoredSequence: { _ in 123_456_789 })
            var bytes: [UInt8] = []
            let region = device * 1_000 + 999
            encoder.encode(
                GeofenceEvent(device: device, region: region, kind: .exit, time: Timestamp(microseconds: 0), latitude: 1.5, longitude: -2.25),
                into: &bytes)
            let name = RegionNames.generated(perDevice: 1_000).name(of: region)
            #expect(String(decoding: bytes, as: UTF8.self) == #"{"device":"device-\#(device)","region":"\#(name)","event":"exit","time":"1970-01-01T00:00:00Z","lat":1.5,"lon":-2.25,"seq":123456790}"# + "\n")
        }
    }

    @Test(arguments: [
        ("device-1234567/r19", #""device-1234567/r19""#),
        ("", #""""#),
        ("café 台北", #""café 台北""#),
        ("a\"b\\c", #""a\"b\\c""#),
        ("tab\there\nline\rend", #""tab\there\nline\rend""#),
        ("\u{01}\u{1F} \u{7F}", #""\u0001\u001f \#u{7F}""#),
        (String(repeating: "long name ", count: 20) + "\"", "\"" + String(repeating: "long name ", count: 20) + #"\"""#),
    ])
    func namesAreQuotedAsJSONStringsWithWhatMustBeEscapedEscaped(name: String, literal: String) {
        #expect(String(decoding: EventEncoder.quoted(name), as: UTF8.self) == literal)
        var bytes = Array("[".utf8)
        EventEncoder.appendQuoted(name, to: &bytes)
        #expect(bytes == Array("[".utf8) + Array(literal.utf8))
    }

    @Test func listedNamesAreEscapedAndFailedAndStateEventsCarryTheirFields() {
        let registry = DeviceRegistry()
        _ = registry.append("bus \"17\"")
        let failed = GeofenceEvent(device: 0, region: 0, kind: .failed, time: Timestamp(microseconds: 0), latitude: 0, longitude: 0, failure: .tooManyRegions, code: 5)
        #expect(Self.line(failed, devices: .registry(registry), regions: .listed(["r\\21"])) == #"{"device":"bus \"17\"","region":"r\\21","event":"failed","code":5,"reason":"tooManyRegions","time":"1970-01-01T00:00:00Z","seq":1}"# + "\n")
        let state = GeofenceEvent(device: 0, region: 0, kind: .state, time: Timestamp(microseconds: 0), latitude: 1, longitude: 2, inside: true)
        #expect(Self.line(state, devices: .registry(registry), regions: .listed(["a"])).contains(#""event":"state","inside":true,"#))
    }

    @Test func seqNumbersEachDevicesEventsAndContinuesFromAnEarlierRun() {
        var encoder = EventEncoder(
            deviceNames: .generated, regionNames: .generated(perDevice: 1), restoredSequence: { $0 == 1 ? 41 : nil })
        var bytes: [UInt8] = []
        for device: Int32 in [0, 1, 0, 2, 1, 0] {
            encoder.encode(
                GeofenceEvent(device: device, region: device, kind: .enter, time: Timestamp(microseconds: 0), latitude: 0, longitude: 0),
                into: &bytes)
        }
        let seqs = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { $0.components(separatedBy: "\"seq\":")[1] }
        #expect(seqs == ["1}", "42}", "2}", "1}", "43}", "3}"])
        #expect(encoder.lastSequence(of: 0) == 3 && encoder.lastSequence(of: 1) == 43)
    }
}
