/// How a monitor's table finds a device's row: device `d` of a table of shard stride `s` is in row `d / s`
/// (``MonitorState/row(of:)``). The exact path's loop is generic over it, so that a table of one shard, the common
/// case of the benchmarks and of a run on one core, is compiled with neither the stride's test nor its division.
protocol RowIndexing {
    func row(of device: Int32) -> Int
}

/// The rows of a table of one shard: a device's row is its number.
struct UnitRows: RowIndexing {
    @inline(__always) func row(of device: Int32) -> Int { Int(device) }
}

/// The rows of one shard among `stride`.
struct StridedRows: RowIndexing {
    let stride: Int
    @inline(__always) func row(of device: Int32) -> Int { Int(device) / stride }
}
