/// What the exact path's loop (``MonitorState/exactRun(devices:latitudes:longitudes:times:from:into:eventLimit:refresh:)``)
/// asks after each sample: whether the device chooses its catalog regions again there (the loop then stops, and
/// the caller makes the choice).
///
/// The loop is generic over it, so that it is compiled once per kind of check: with ``NoRefresh`` (no selection)
/// the question folds away and the loop is the plain one; with ``RefreshRule`` it reads a few scalars.
protocol RefreshCheck {
    /// Whether the device of `row` chooses again at this sample (its position and time, in microseconds).
    func isDue(row: Int, latitude: Double, longitude: Double, time: Int64) -> Bool
}

/// A monitor without a selection: no device ever chooses again.
struct NoRefresh: RefreshCheck {
    @inline(__always)
    func isDue(row: Int, latitude: Double, longitude: Double, time: Int64) -> Bool { false }
}

/// When the devices of a ``CatalogSelection`` choose again: where and when each last chose (by row), and the
/// settings. The selection keeps its rule here, and a run of the batch call holds a copy of it (the choice the run
/// stops for writes to the selection): two arrays of the shard's own retained once a run, where a copy of the
/// whole selection retained a dozen objects, the catalog's among them, whose counts a run's shards share (that
/// copy's retains alone were about 1 % of a `nearest` run's samples).
struct RefreshRule: RefreshCheck {
    /// Where each device last chose: it chooses again once `refreshDistance` from there.
    var anchor: [CatalogSelection.Anchor] = []
    /// When each device last chose (microseconds; `.min` before its first choice).
    var chosenAt: [Int64] = []
    let settings: SelectionSettings

    init(settings: SelectionSettings) {
        self.settings = settings
    }

    /// Whether the device of `row` chooses again at this sample
    /// (``CatalogSelection/Anchor/isDue(chosenAt:latitude:longitude:time:settings:)``); never for a row without a
    /// choice's fields.
    @inline(__always)
    func isDue(row: Int, latitude: Double, longitude: Double, time: Int64) -> Bool {
        guard row < anchor.count else { return false }
        return anchor[row].isDue(
            chosenAt: chosenAt[row], latitude: latitude, longitude: longitude, time: time, settings: settings)
    }
}
