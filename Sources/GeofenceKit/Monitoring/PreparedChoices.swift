/// Choices answered ahead of the samples that ask for them (``MonitorState/prepareFirstChoices(at:)``): where the
/// devices will be at their first sample, when the caller knows it — a random walk's devices start where its seed
/// puts them — so that a hundred thousand first choices are answered together, in the order of the catalog's
/// curve and on every core (``CatalogIndex/nearest(at:count:within:admitting:)``), instead of one by one from
/// a cold cache as the devices come.
///
/// An answer is used only for the very position and number of regions it was computed for, so it is the one the
/// query would give there; a device whose first sample is elsewhere (filtered, restored) simply queries.
struct PreparedChoices: Sendable {
    let answers: CatalogIndex.NearestBatch
    /// Where each answer was computed, by point.
    let latitudes: [Double]
    let longitudes: [Double]
    /// The point prepared for each row, or -1 (none, or already used).
    private var pointOfRow: [Int32]
    /// Answers not yet used: the table is dropped when none is left.
    private(set) var left: Int

    init(answers: CatalogIndex.NearestBatch, rows: [Int], latitudes: [Double], longitudes: [Double]) {
        self.answers = answers
        self.latitudes = latitudes
        self.longitudes = longitudes
        pointOfRow = Array(repeating: -1, count: (rows.max() ?? -1) + 1)
        for (point, row) in rows.enumerated() { pointOfRow[row] = Int32(point) }
        left = rows.count
    }

    /// Moves the row's prepared answer into `regions` when it was computed at this position for `wanted` regions
    /// (it is then used up); `false`, with `regions` untouched, otherwise.
    mutating func take(row: Int, latitude: Double, longitude: Double, wanted: Int, into regions: inout [Int32]) -> Bool {
        guard row < pointOfRow.count, pointOfRow[row] >= 0 else { return false }
        let point = Int(pointOfRow[row])
        pointOfRow[row] = -1
        left -= 1
        guard wanted == answers.wanted, latitudes[point] == latitude, longitudes[point] == longitude else { return false }
        regions.removeAll(keepingCapacity: true)
        regions.append(contentsOf: answers.regions(ofPoint: point))
        return true
    }
}
