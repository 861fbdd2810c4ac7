/// A restored device's saved regions by id, as registration asks for them: the first saved entry of an id.
///
/// A device saves a few regions (20 on iOS), in the order it registers them again: a search along the list costs
/// less than hashing them into a dictionary for each of a million restored devices. Longer lists are hashed.
struct SavedRegions {
    private let regions: [DeviceState.Region]
    private let byID: [Int32: DeviceState.Region]?

    /// Lists at most this long are searched rather than hashed.
    private static var searchedCount: Int { 32 }

    init(_ regions: [DeviceState.Region]) {
        self.regions = regions
        byID =
            regions.count > Self.searchedCount
            ? Dictionary(regions.map { ($0.region, $0) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    subscript(id: Int32) -> DeviceState.Region? {
        if let byID { return byID[id] }
        return regions.first { $0.region == id }
    }
}
