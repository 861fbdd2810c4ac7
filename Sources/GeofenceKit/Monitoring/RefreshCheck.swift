/// What the exact path's loop (``MonitorState/exactRun(devices:latitudes:longitudes:times:from:into:eventLimit:refresh:)``)
/// asks after each sample: whether the device chooses its catalog regions again there (the loop then stops, and
/// the caller makes the choice).
///
/// The loop is generic over it, so that it is compiled once per kind of check: with ``NoRefresh`` (no selection)
/// the question folds away and the loop is the plain one; with ``CatalogSelection`` it reads a few scalars.
protocol RefreshCheck {
    /// Whether the device of `row` chooses again at this sample (its position and time, in microseconds).
    func isDue(row: Int, latitude: Double, longitude: Double, time: Int64) -> Bool
}

/// A monitor without a selection: no device ever chooses again.
struct NoRefresh: RefreshCheck {
    @inline(__always)
    func isDue(row: Int, latitude: Double, longitude: Double, time: Int64) -> Bool { false }
}
