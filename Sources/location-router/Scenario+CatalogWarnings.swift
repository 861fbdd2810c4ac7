import GeofenceKit

/// Warnings about catalog options that the run's other inputs leave with nothing to do: said before the run,
/// rather than a generated catalog silently left out, or a `coverage` of 100 % that counted nothing.
extension Scenario {
    /// The warnings for this scenario, given its region file's catalog when it has one.
    func catalogWarnings(regionFile: RegionCatalog?) -> [String] {
        var warnings = ignoredCatalogWarning.map { [$0] } ?? []
        let hasCatalog = regionFile.map { $0.sharedCount > 0 } ?? (isRandomWalk && walk.catalog != nil)
        guard !hasCatalog else { return warnings }
        let none =
            regionFile != nil
            ? "every region of \(regionsFile ?? "the regions file") lists its devices"
            : "the regions are generated per device (a shared catalog: --catalog N, or regions without \"devices\")"
        if selection.strategy == .nearest {
            warnings.append("--selection nearest has no shared catalog to choose from: \(none)")
        }
        if coverage {
            warnings.append("--coverage has no shared catalog to evaluate, and will count no transition: \(none)")
        }
        return warnings
    }

    /// Whether the samples come from the seeded random walk, the one source a generated catalog serves.
    var isRandomWalk: Bool { if case .randomWalk = source { true } else { false } }

    /// Why the generated catalog (`--catalog`, `regions.catalog`) is left out of this run; `nil` when it is not.
    var ignoredCatalogWarning: String? {
        guard walk.catalog != nil else { return nil }
        if let regionsFile { return "--catalog (regions.catalog) is ignored: the regions come from \(regionsFile)" }
        if isRandomWalk { return nil }
        return "--catalog (regions.catalog) is ignored: a generated catalog is for the random-walk source"
    }
}
