import Testing

@testable import GeofenceFormats
import GeofenceKit

/// The circle shortcut of the GeoJSON decoder reads common circle features without a tree, and declines the rest;
/// either way the regions are those of the tree path.
@Suite struct CircleFeatureShortcutTests {
    /// What the shortcut makes of one feature: the region, or `nil` when it declines.
    private func shortcut(_ feature: String) -> Region? {
        Array(feature.utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            return CircleFeatureShortcut.read(&scanner)
        }
    }

    /// The region the tree path makes of one feature.
    private func tree(_ feature: String) throws -> Region {
        var warnings: [InputError] = []
        return try GeoJSONRegionDecoder.decodeFeature(
            try JSONParser.parse(feature), path: "features[0]", warnings: &warnings
        ).0
    }

    /// Every field of a region, compared as the monitors use them.
    private func summary(_ region: Region) -> String {
        guard case .circle(let circle) = region.geometry else { return "\(region.id): not a circle" }
        return "\(region.id) \(circle.center.latitude) \(circle.center.longitude) \(circle.radius) "
            + "\(region.notifyOnEntry) \(region.notifyOnExit) \(String(describing: region.devices)) "
            + "\(String(describing: region.notifyOnDwell)) \(String(describing: region.loiteringDelay)) "
            + "\(String(describing: region.bufferDistance)) \(String(describing: region.confirmationTime))"
    }

    static let taken = [
        #"{"type":"Feature","id":"d1-c0","properties":{"radius":123.456,"devices":["device-1"]},"geometry":{"type":"Point","coordinates":[121.51712345678901,25.047812345678903]}}"#,
        #"{"geometry": {"coordinates": [-0.5, 51.25, 12], "type": "Point"}, "properties": {"radius": 1e2}, "id": 7.0, "type": "Feature"}"#,
        #"{"type":"Feature","id":-0,"properties":{"radius":5,"notifyOnEntry":false,"notifyOnExit":true,"notifyOnDwell":true,"loiteringDelay":30,"bufferDistance":0,"confirmationTime":2.5},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","properties":{"id":"from-properties","radius":1000000},"geometry":{"type":"Point","coordinates":[180,-90]}}"#,
        "{\"type\":\"Feature\",\n  \"id\":\"caf\\u00e9\",\r\n  \"properties\":{\"radius\":1,\"devices\":[\"a\",\"b\\\"c\"]},\n  \"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}",
    ]

    /// The compact layout (read in pieces of text) and every way of leaving it (read member by member).
    static let compact = [
        #"{"type":"Feature","id":"d1-c0","properties":{"radius":123.456,"devices":["device-1"]},"geometry":{"type":"Point","coordinates":[121.5,25.25]}}"#,
        #"{"type":"Feature","id":7.0,"properties":{"radius":5,"devices":["a","b"]},"geometry":{"type":"Point","coordinates":[1.5,2.5,3]}}"#,
        #"{"type":"Feature","id":"caf\u00e9","properties":{"radius":1e2,"devices":[ "a" ]},"geometry":{"type":"Point","coordinates":[ 1.5 , 2.5 ]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[1.5,2.5]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":["a"],"notifyOnExit":false},"geometry":{"type":"Point","coordinates":[1.5,2.5]}}"#,
        #"{"type":"Feature","id":"a","properties":{"devices":["a"],"radius":5},"geometry":{"type":"Point","coordinates":[1.5,2.5]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":["a"]},"geometry":{"coordinates":[1.5,2.5],"type":"Point"}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":["a"]},"geometry":{"type":"Point","coordinates":[1.5,2.5]} }"#,
        #"{"type": "Feature","id":"a","properties":{"radius":5,"devices":["a"]},"geometry":{"type":"Point","coordinates":[1.5,2.5]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":["a"]},"geometry":{"type":"Point","coordinates":[1.5,2.5]},"bbox":null}"#,
    ]

    @Test(arguments: compact)
    func readsTheCompactLayoutAsTheTreePathDoes(feature: String) throws {
        // A member the shortcut does not know (`bbox`) is the tree path's to read; the rest are the shortcut's.
        let fallback = feature.contains("bbox") ? try tree(feature) : nil
        let region = try #require(shortcut(feature) ?? fallback)
        #expect(summary(region) == summary(try tree(feature)))
    }

    @Test(arguments: taken)
    func takesCommonCirclesAsTheTreePathDoes(feature: String) throws {
        let region = try #require(shortcut(feature))
        #expect(summary(region) == summary(try tree(feature)))
    }

    /// Numbers as coordinates and radii, in every form JSON allows and some it does not: the plain decimals the
    /// shortcut reads a word at a time, the rest digit by digit; either way the values of the tree path, to the
    /// bit, or a refusal where the tree path refuses.
    static let numbers = [
        "121.51712345678901", "-25.047812345678903", "1.5", "0.5", "-0.0", "0", "-0", "7", "123", "180",
        "0.000123456789012345678", "12.34567890123456789012", "99.99999999999999999999", "1234567.1",
        "12345678.5", "1.0000000000000002", "2.2250738585072014", "1e2", "1.5E+1", "2.5e-3", "0.1 ", "0.1\n",
        "01.5", "1.", ".5", "+1.5", "1.5.5", "1..5", "-", "--1", "1e", "0x10", "1.5x",
    ]

    static let takenNumbers: Set = [
        "1.5", "0.5", "7", "0.000123456789012345678", "12.34567890123456789012", "1.0000000000000002",
        "2.2250738585072014", "1.5E+1", "2.5e-3", "0.1 ", "0.1\n",
    ]

    @Test(arguments: numbers)
    func readsNumbersAsTheTreePathDoes(text: String) {
        for feature in [
            #"{"type":"Feature","id":"a","properties":{"radius":\#(text)},"geometry":{"type":"Point","coordinates":[1.25,2.5]}}"#,
            #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[\#(text),2.5]}}"#,
            #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[1.25,\#(text)]}}"#,
        ] {
            let treeRegion = try? tree(feature)
            if let region = shortcut(feature) {
                #expect(summary(region) == treeRegion.map(summary), "\(feature)")
            }
        }
        // Valid positive numbers in range are the shortcut's to read.
        if Self.takenNumbers.contains(text) {
            let feature =
                #"{"type":"Feature","id":"a","properties":{"radius":\#(text)},"#
                + #""geometry":{"type":"Point","coordinates":[\#(text),\#(text)]}}"#
            #expect(shortcut(feature) != nil)
        }
    }

    /// Features the tree path warns about, refuses, or that hold what the shortcut does not read.
    static let declined = [
        #"{"type":"Feature","id":"a","properties":{"radius":0,"devices":["a"]},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":[]},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"","properties":{"radius":5,"devices":["a"]},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":["a"]},"geometry":{"type":"Point","coordinates":[0,95]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":["a"]},"geometry":{"type":"Point","coordinates":[0,0]}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":["a"]},"geometry":{"type":"Point","coordinates":[0,0]},"bbox":[0,0,0,0]}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"name":"kept by the tree path"},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"devices":[]},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"notifyOnExit":null},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":0},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":1e999},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5,"radius":6},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":null,"properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,95]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":null}"#,
        #"{"type":"Featur","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"typ\u0065":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","bbox":[0,0,0,0],"properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}"#,
        #"{"type":"Featur\u0065","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radiuses":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Points","coordinates":[0,0]}}"#,
        #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinate":[0,0]}}"#,
    ]

    @Test(arguments: declined)
    func declinesWhatTheTreePathMustDecide(feature: String) {
        #expect(shortcut(feature) == nil)
    }

    /// A known key or value is matched from the bytes whole, quotes included, wherever it lies: far from the end
    /// of the bytes (a word at a time) or near it (a byte at a time).
    @Test func matchesQuotedTextExactlyAnywhereInTheBytes() {
        let key = QuotedText("confirmationTime")
        for padding in 0..<30 {
            for (text, expected) in [
                ("\"confirmationTime\"", true), ("\"confirmationTimes\"", false), ("\"confirmationTim\"", false),
                ("\"confirmationTim\\u0065\"", false), ("\"Confirmationtime\"", false),
            ] {
                let bytes = Array((text + String(repeating: " ", count: padding)).utf8)
                bytes.withUnsafeBufferPointer { buffer in
                    var scanner = JSONScanner(buffer)
                    let matched = scanner.consume(key)
                    #expect(matched == expected, "\(text) + \(padding) spaces")
                    #expect(scanner.offset == (expected ? text.utf8.count : 0))
                }
            }
        }
        // Cut short: not a match, and nothing read past the end.
        Array("\"confirmationTi".utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            let matched = scanner.consume(key)
            #expect(!matched)
        }
    }

    /// Features read one after the other share the last one-device list when they name the same device, and only
    /// then: every region still has its own devices, escaped names and longer lists included.
    @Test func featuresNamingTheSameDeviceShareItsList() {
        let lists = [#"["a"]"#, #"["a"]"#, #"[ "b" ]"#, #"["a","b"]"#, #"["\u0062"]"#, #"["b"]"#, #"["ab"]"#, #"["a"]"#]
        let features = lists.enumerated().map { index, devices in
            #"{"type":"Feature","id":"c\#(index)","properties":{"radius":5,"devices":\#(devices)},"#
                + #""geometry":{"type":"Point","coordinates":[1,2]}}"#
        }
        let bytes = Array(features.joined(separator: ",").utf8)
        let devices = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            var deviceLists = DeviceListCache()
            var devices: [[String]] = []
            for _ in features {
                devices.append(CircleFeatureShortcut.read(&scanner, deviceLists: &deviceLists)?.devices ?? [])
                _ = scanner.consume(UInt8(ascii: ","))
            }
            return devices
        }
        #expect(devices == [["a"], ["a"], ["b"], ["a", "b"], ["b"], ["b"], ["ab"], ["a"]])
        func sharesStorage(_ left: [String], _ right: [String]) -> Bool {
            left.withUnsafeBufferPointer { l in right.withUnsafeBufferPointer { r in l.baseAddress == r.baseAddress } }
        }
        #expect(sharesStorage(devices[0], devices[1]))
        #expect(!sharesStorage(devices[1], devices[2]))
        // A longer list leaves the cached one as it was; an escaped name is built on its own.
        #expect(sharesStorage(devices[2], devices[5]))
        #expect(!sharesStorage(devices[4], devices[2]))
        #expect(!sharesStorage(devices[0], devices[7]))
    }

    /// A duplicate of an id the shortcut took is still reported by the tree path, naming the first feature.
    @Test func reportsADuplicateOfAnIdItTook() {
        let first = #"{"type":"Feature","id":"same","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[0,0]}}"#
        let bytes = Array("{\"type\":\"FeatureCollection\",\"features\":[\n\(first),\n\(first)\n]}".utf8)
        #expect(throws: InputError.self) { try GeoJSONRegionDecoder.decode(bytes) }
        do {
            _ = try GeoJSONRegionDecoder.decode(bytes)
        } catch {
            #expect(error.line == 3)
            #expect(error.field == "features[1].id")
            #expect(error.message.contains("features[0] has it too"))
        }
    }
}
