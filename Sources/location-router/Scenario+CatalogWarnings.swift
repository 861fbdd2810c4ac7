import GeofenceKit

/// Warnings about catalog options that the run's other inputs leave with nothing to do, and about a catalog that
/// `fileOrder` cannot fit in a device's slots: said before the run, rather than a generated catalog silently left
/// out, a `coverage` of 100 % that counted nothing, or a run of `failed` events with no word of why.
extension Scenario {
    /// The warnings for this scenario, given its region file's catalog when it has one.
    func catalogWarnings(regionFile: RegionCatalog?) -> [String] {
        var warnings = ignoredCatalogWarning.map { [$0] } ?? []
        let shared = regionFile?.sharedCount ?? (isRandomWalk ? walk.catalog?.count ?? 0 : 0)
        guard shared == 0 else {
            if selection.strategy == .fileOrder && shared > settings.slotLimit {
                warnings.append(Self.catalogPastSlotLimit(shared: shared, limit: settings.slotLimit))
            }
            return warnings
        }
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

    /// Why a shared catalog of `shared` regions, more than the slot limit `limit`, is worth a warning under
    /// `fileOrder` (`run` and `check` say it in these words).
    static func catalogPastSlotLimit(shared: Int, limit: Int) -> String {
        "a shared catalog of \(shared) regions (without a devices list, or regions.catalog) is larger than the slot limit (\(limit)); "
            + "under selection fileOrder (the default) every device registers them in file order and those "
            + "past the limit fail — use --selection nearest (monitor.selection) to monitor the nearest"
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
