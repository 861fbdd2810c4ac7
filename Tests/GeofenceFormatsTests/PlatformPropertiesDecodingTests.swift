import Testing

@testable import GeofenceFormats
import GeofenceKit

/// The GeoJSON properties of the platform profiles: `transitionTypes`, `notificationResponsiveness`, `assuming`.
@Suite struct PlatformPropertiesDecodingTests {
    static func region(_ properties: String) throws(InputError) -> Region? {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"r","geometry":{"type":"Point","coordinates":[121,25]},"properties":{"radius":100\#(properties)}}]}"#
        return try GeoJSONRegionDecoder.decode(Array(text.utf8)).first
    }

    @Test func transitionTypesSetTheThreeNotifyFlags() throws {
        let dwellOnly = try #require(try Self.region(#","transitionTypes":["dwell"]"#))
        #expect(!dwellOnly.notifyOnEntry && !dwellOnly.notifyOnExit && dwellOnly.notifyOnDwell == true)
        let all = try #require(try Self.region(#","transitionTypes":["enter","exit","dwell"]"#))
        #expect(all.notifyOnEntry && all.notifyOnExit && all.notifyOnDwell == true)
        let none = try #require(try Self.region(""))
        #expect(none.notifyOnEntry && none.notifyOnExit && none.notifyOnDwell == nil)
    }

    @Test(arguments: [
        (#","transitionTypes":["enter","loiter"]"#, "features[0].properties.transitionTypes[1]: must be \"enter\", \"exit\" or \"dwell\", found \"loiter\""),
        (#","transitionTypes":["enter"],"notifyOnExit":false"#, "features[0].properties.transitionTypes: give transitionTypes or notifyOnExit, not both"),
        (#","notificationResponsiveness":-1"#, "features[0].properties.notificationResponsiveness: must be ≥ 0 seconds"),
        (#","assuming":"inside""#, "features[0].properties.assuming: must be \"satisfied\" or \"unsatisfied\", found \"inside\""),
    ])
    func badPlatformPropertiesAreRefusedWithTheirPath(properties: String, message: String) {
        #expect {
            _ = try Self.region(properties)
        } throws: { error in
            (error as? InputError).map { "\($0.field ?? ""): \($0.message)" } == message
        }
    }

    @Test func responsivenessAndAssumedStateAreRead() throws {
        let region = try #require(try Self.region(#","notificationResponsiveness":300,"assuming":"satisfied""#))
        #expect(region.notificationResponsiveness == 300)
        #expect(region.assumedInside == true)
        #expect(try Self.region(#","assuming":"unsatisfied""#)?.assumedInside == false)
    }
}
