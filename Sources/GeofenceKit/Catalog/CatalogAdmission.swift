/// Which catalog regions a platform accepts, so that a choice never takes one whose registration would fail: none
/// larger than ``maximumRadius`` (a circle's radius, a polygon's ``PolygonGeometry/halfExtent``), and no polygon
/// when the platform refuses them (``PolygonHandling/refuse``: Core Location and Android monitor circles only).
public struct CatalogAdmission: Sendable, Equatable {
    /// The largest region accepted; `nil`: any size.
    public var maximumRadius: Double?
    /// Whether polygons are accepted.
    public var polygons: Bool

    public init(maximumRadius: Double? = nil, polygons: Bool = true) {
        self.maximumRadius = maximumRadius
        self.polygons = polygons
    }

    /// Every region.
    public static let any = CatalogAdmission()

    /// The regions a monitor with these settings registers without a `failed` event (`radiusTooLarge`,
    /// `unsupportedShape`).
    public init(_ settings: MonitorSettings) {
        self.init(maximumRadius: settings.maximumRadius, polygons: settings.polygons != .refuse)
    }

    /// Whether a region of this shape is accepted (the rule the index applies to its entries).
    public func admits(_ geometry: RegionGeometry) -> Bool {
        switch geometry {
        case .circle(let circle): maximumRadius.map { circle.radius <= $0 } ?? true
        case .polygon(let polygon): polygons && (maximumRadius.map { polygon.halfExtent <= $0 } ?? true)
        }
    }
}
