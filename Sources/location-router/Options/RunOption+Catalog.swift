import GeofenceFormats
import GeofenceKit
import LocationRouter

/// The options of shared catalogs: how devices choose their regions from one, a generated catalog, coverage.
extension RunOption {
    static let catalog: [RunOption] = [
        .value(
            "--selection", "<s>", key: "monitor.selection",
            .text("fileOrder, nearest", message: "must be fileOrder or nearest") { SelectionStrategy(rawValue: $0) },
            errorName: "<strategy>",
            help: [
                "How devices choose from a shared catalog (regions without devices):",
                "fileOrder (register in file order, past the slot limit failed) or",
                "nearest (the N nearest, chosen again as the device moves).",
            ]
        ) { $0.selection.strategy = $1 },
        .value("--refresh-distance", "<m>", key: "monitor.refreshDistance", .positive(max: 1_000_000), errorName: "<metres>", help: [
            "nearest: choose again after moving this far (default: 500).",
        ]) { $0.selection.refreshDistance = $1 },
        .value("--refresh-interval", "<s>", key: "monitor.refreshInterval", OptionRule.positive(max: 31_622_400).orNull, errorName: "<seconds>", help: [
            "nearest: also choose again every <s> seconds (default: never).",
        ]) { $0.selection.refreshInterval = $1 },
        .value("--proximity-radius", "<m>", key: "monitor.proximityRadius", OptionRule.positive(max: 20_000_000).orNull, errorName: "<metres>", help: [
            "nearest: only regions whose boundary is within <m> metres (default: any).",
        ]) { $0.selection.proximityRadius = $1 },
        .value("--catalog", "<n>", key: nil, .integer(1...(CatalogIndex.maximumCount - 1)), errorName: "<count>", help: [
            "Random walk: a shared catalog of <n> circles over the walk's area",
            "instead of regions per device (config: regions.catalog).",
        ]) { $0.walk.catalog = GeneratedCatalogConfiguration(count: $1, radius: $0.walk.catalog?.radius ?? 50...300) },
        .configObject("regions.catalog") { (scenario, object, key) throws(InputError) in
            guard let value = object.value(key), !value.isNull else { return }
            guard var catalog = try object.object(key) else { return }
            let count = try OptionRule<Int>.integer(1...(CatalogIndex.maximumCount - 1)).read(&catalog, "count") ?? 10_000
            var radius = 50.0...300.0
            if var range = try catalog.object("radius") {
                radius = try Self.range(&range, default: radius, max: 1_000_000, allowsZeroMinimum: false)
                try range.finish()
            }
            try catalog.finish()
            scenario.walk.catalog = GeneratedCatalogConfiguration(count: count, radius: radius)
        },
        .flag("--coverage", key: "coverage", help: [
            "Also evaluate every catalog region exactly, with no slot limit, and",
            "report what the slot limit cost: coverage {transitions, caught, missed,",
            "late, ratio, unmatched}.",
        ]) { $0.coverage = $1 },
    ]
}
