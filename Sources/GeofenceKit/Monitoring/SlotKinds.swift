/// What a monitor's slots may be, for the exact path's slot tests (``MonitorState/testSlots(of:movedSquared:device:latitude:longitude:time:tables:into:)``),
/// which are generic over it: they are compiled a second time for a table whose slots are all circles of their
/// record's radius, the common case (every generated region, every circle of a whole or half metre), so that a
/// tested slot there asks neither whether it is a polygon nor whether the table keeps its exact radius apart.
protocol SlotKinds {
    /// Whether every slot is a circle whose record's `Float` radius is its radius: the table keeps no exact radii
    /// (``SlotTable/exactRadius``) and the monitor has no polygon (a polygon slot refers to an entry of its table).
    static var arePlainCircles: Bool { get }
}

/// A table of plain circles only.
enum PlainCircleSlots: SlotKinds {
    static var arePlainCircles: Bool { true }
}

/// Any table: polygons asked through the monitor's polygon table, radii taken from the exact radii where kept.
enum AnySlots: SlotKinds {
    static var arePlainCircles: Bool { false }
}
