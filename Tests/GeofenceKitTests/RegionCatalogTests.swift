import Testing
@testable import GeofenceKit

/// Which regions of a file each device monitors: its own (those whose `devices` name it) merged with the regions
/// for every device, in file order, however the file interleaves them.
@Suite struct RegionCatalogTests {
    /// A circle named `id` monitored by `devices` (`nil`: every device).
    static func region(_ id: String, _ devices: [String]?) throws -> Region {
        Region(
            id: id, geometry: .circle(CircleGeometry(center: try Coordinate(latitude: 1, longitude: 2), radius: 10)),
            devices: devices)
    }

    static func ids(_ regions: [MonitoredRegion], in catalog: RegionCatalog) -> [String] {
        regions.map { catalog.regions[Int($0.id)].id }
    }

    @Test func runsOfOneDeviceInterruptedByRegionsForEveryDevice() throws {
        let catalog = RegionCatalog(regions: [
            try Self.region("a0", ["a"]), try Self.region("a1", ["a"]), try Self.region("all0", nil),
            try Self.region("a2", ["a"]), try Self.region("b0", ["b"]), try Self.region("a3", ["a"]),
            try Self.region("ab", ["b", "a", "b"]), try Self.region("a4", ["a"]), try Self.region("all1", nil),
            try Self.region("b1", ["b"]),
        ])
        #expect(Self.ids(catalog.ownRegions(forDevice: "a"), in: catalog) == ["a0", "a1", "a2", "a3", "ab", "a4"])
        #expect(Self.ids(catalog.ownRegions(forDevice: "b"), in: catalog) == ["b0", "ab", "b1"])
        #expect(
            Self.ids(catalog.regions(forDevice: "a"), in: catalog)
                == ["a0", "a1", "all0", "a2", "a3", "ab", "a4", "all1"])
        #expect(Self.ids(catalog.regions(forDevice: "b"), in: catalog) == ["all0", "b0", "ab", "all1", "b1"])
        #expect(Self.ids(catalog.regions(forDevice: "c"), in: catalog) == ["all0", "all1"])
        #expect(catalog.ownRegions(forDevice: "c").isEmpty)
        #expect(catalog.sharedCount == 2)
    }

    /// Regions sharing one list array (as the GeoJSON decoder shares a device's list among its regions) are filed
    /// as regions with lists of their own are, including a list shared across an interruption.
    @Test func regionsSharingOneListArray() throws {
        let a = ["a"]
        let b = ["b"]
        let ids = ["a0", "a1", "b0", "a2", "all", "a3", "b1", "b2"]
        let lists: [[String]?] = [a, a, b, a, nil, a, b, b]
        let shared = RegionCatalog(regions: try zip(ids, lists).map { try Self.region($0, $1) })
        let separate = RegionCatalog(regions: try zip(ids, lists).map { try Self.region($0, $1.map { list in list.map { $0 } }) })
        for catalog in [shared, separate] {
            #expect(Self.ids(catalog.ownRegions(forDevice: "a"), in: catalog) == ["a0", "a1", "a2", "a3"])
            #expect(Self.ids(catalog.ownRegions(forDevice: "b"), in: catalog) == ["b0", "b1", "b2"])
            #expect(Self.ids(catalog.regions(forDevice: "b"), in: catalog) == ["b0", "all", "b1", "b2"])
            #expect(catalog.identifiers == ids)
        }
    }

    /// A catalog built region by region as a decoder hands them over files them as one built from the array does.
    @Test func builtRegionByRegion() throws {
        let a = ["a"]
        let regions = [
            try Self.region("a0", a), try Self.region("a1", a), try Self.region("all0", nil),
            try Self.region("a2", a), try Self.region("b0", ["b"]), try Self.region("a3", ["a"]),
            try Self.region("ab", ["b", "a", "b"]), try Self.region("a4", a), try Self.region("all1", nil),
            try Self.region("b1", ["b"]),
        ]
        var builder = RegionCatalog.Builder(expected: 4)
        for region in regions { builder.append(region) }
        #expect(builder.count == regions.count)
        let built = builder.build()
        let whole = RegionCatalog(regions: regions)
        #expect(built.identifiers == whole.identifiers)
        #expect(built.regions.map(\.id) == regions.map(\.id))
        #expect(built.sharedCount == 2)
        for device in ["a", "b", "c"] {
            #expect(Self.ids(built.regions(forDevice: device), in: built) == Self.ids(whole.regions(forDevice: device), in: whole))
            #expect(Self.ids(built.ownRegions(forDevice: device), in: built) == Self.ids(whole.ownRegions(forDevice: device), in: whole))
        }
        #expect(Self.ids(built.regions(forDevice: "a"), in: built) == ["a0", "a1", "all0", "a2", "a3", "ab", "a4", "all1"])
    }

    @Test func aFileThatEndsInARunAndOneWithoutDeviceLists() throws {
        let bound = RegionCatalog(regions: [try Self.region("x0", ["x"]), try Self.region("x1", ["x"])])
        #expect(Self.ids(bound.regions(forDevice: "x"), in: bound) == ["x0", "x1"])
        #expect(bound.regions(forDevice: "y").isEmpty)

        let shared = RegionCatalog(regions: [try Self.region("s0", nil), try Self.region("s1", nil)])
        #expect(Self.ids(shared.regions(forDevice: "any"), in: shared) == ["s0", "s1"])
        #expect(RegionCatalog(regions: []).regions(forDevice: "any").isEmpty)
    }
}
