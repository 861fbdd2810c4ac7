import GeofenceKit

/// Warnings about catalog options that the run's other inputs leave with nothing to do, about a catalog that
/// `fileOrder` cannot fit in a device's slots, and about catalog regions or devices that `nearest` leaves out: said
/// before the run, rather than a generated catalog silently left out, a `coverage` of 100 % that counted nothing, a
/// run of `failed` events with no word of why, or devices that never choose.
extension Scenario {
    /// The warnings for this scenario, given its region file's catalog when it has one.
    func catalogWarnings(regionFile: RegionCatalog?) -> [String] {
        var warnings = ignoredCatalogWarning.map { [$0] } ?? []
        let shared = regionFile?.sharedCount ?? (isRandomWalk ? walk.catalog?.count ?? 0 : 0)
        guard shared == 0 else {
            switch selection.strategy {
            case .fileOrder:
                if let past = Self.slotLimitWarning(
                    shared: shared, ownCounts: regionFile?.ownRegionCounts ?? [], limit: settings.slotLimit)
                {
                    warnings.append(past)
                }
            case .nearest:
                guard let regionFile else { break }
                if let full = Self.noSlotLeftWarning(ownCounts: regionFile.ownRegionCounts, limit: settings.slotLimit) {
                    warnings.append(full)
                }
                if let never = neverChosenWarning(regionFile) { warnings.append(never) }
            }
            return warnings
        }
        let file = regionsFile ?? "the regions file"
        let none =
            regionFile.map {
                $0.regions.isEmpty ? "\(file) has no regions" : "every region of \(file) lists its devices"
            }
            ?? "the regions are generated per device (a shared catalog: --catalog N, or regions without \"devices\")"
        if selection.strategy == .nearest {
            warnings.append("--selection nearest has no shared catalog to choose from: \(none)")
        }
        if coverage {
            warnings.append("--coverage has no shared catalog to evaluate, and will count no transition: \(none)")
        }
        return warnings
    }

    /// What `run` and `check` say under `fileOrder` of a shared catalog of `shared` regions and the devices' own
    /// regions (`ownCounts`, read only when the catalog alone fits) against the slot limit `limit`; `nil` when every
    /// device's regions fit.
    static func slotLimitWarning(
        shared: Int, ownCounts: @autoclosure () -> [(device: String, count: Int)], limit: Int
    ) -> String? {
        shared > limit
            ? catalogPastSlotLimit(shared: shared, limit: limit)
            : devicesPastSlotLimit(ownCounts: ownCounts(), shared: shared, limit: limit)
    }

    /// Why a shared catalog of `shared` regions, more than the slot limit `limit`, is worth a warning under
    /// `fileOrder`.
    private static func catalogPastSlotLimit(shared: Int, limit: Int) -> String {
        "a shared catalog of \(shared) regions (without a devices list, or regions.catalog) is larger than the slot limit (\(limit)); "
            + "under selection fileOrder (the default) every device registers them in file order and those "
            + "past the limit fail — use --selection nearest (monitor.selection) to monitor the nearest"
    }

    /// Why devices whose own regions and a shared catalog of `shared` (no larger than `limit`) pass the slot limit
    /// `limit` are worth a warning under `fileOrder`: those past it fail on each such device; `nil` when no device
    /// passes it. The device named is the one with the most own regions (the first by name among equals).
    private static func devicesPastSlotLimit(
        ownCounts: some Sequence<(device: String, count: Int)>, shared: Int, limit: Int
    ) -> String? {
        guard shared > 0, let (past, most) = devices(of: ownCounts, where: { $0 + shared > limit }) else {
            return nil
        }
        let (devices, own, they) =
            past == 1
            ? ("1 device registers", "its", "it registers") : ("\(past) devices register", "their", "they register")
        return "\(devices) more regions than the slot limit (\(limit)), \(own) own and the shared catalog's \(shared) "
            + "(\(most.device): \(most.count) + \(shared) = \(most.count + shared)); under selection fileOrder (the "
            + "default) \(they) them in file order and those past the limit fail — use --selection nearest "
            + "(monitor.selection) to give the slots left after a device's own regions to the nearest"
    }

    /// Under `nearest`, the devices whose own regions (`ownCounts`) take every slot (`limit`) and leave none for the
    /// shared catalog, said before the run rather than devices that silently choose nothing; `nil` when there are
    /// none. The device named is the one with the most own regions.
    static func noSlotLeftWarning(ownCounts: some Sequence<(device: String, count: Int)>, limit: Int) -> String? {
        guard let (past, most) = devices(of: ownCounts, where: { $0 >= limit }) else { return nil }
        let (devices, their, them) =
            past == 1 ? ("1 device has", "its", "it") : ("\(past) devices have", "their", "them")
        let fail = most.count > limit ? "; a device's own regions past the limit fail" : ""
        return "\(devices) as many regions of \(their) own as the slot limit (\(limit)) or more (\(most.device): "
            + "\(most.count)), which leaves \(them) no slot for the shared catalog under selection nearest\(fail)"
    }

    /// How many devices of `ownCounts` have a count that `isPast`, and the one of them with the most own regions (the
    /// first by name among equals); `nil` when none has.
    private static func devices(
        of ownCounts: some Sequence<(device: String, count: Int)>, where isPast: (Int) -> Bool
    ) -> (past: Int, most: (device: String, count: Int))? {
        var past = 0
        var most: (device: String, count: Int)?
        for entry in ownCounts where isPast(entry.count) {
            past += 1
            if let best = most, (best.count, entry.device) >= (entry.count, best.device) { continue }
            most = entry
        }
        return most.map { (past, $0) }
    }

    /// Under `nearest`, the shared regions of `file` that no choice can take because the profile would refuse them
    /// (polygons where it monitors circles only, regions larger than its maximum radius), said before the run
    /// rather than a catalog that silently loses them; `nil` when there are none.
    func neverChosenWarning(_ file: RegionCatalog) -> String? {
        let admission = CatalogAdmission(settings)
        var polygons = 0
        var large = 0
        for region in file.sharedRegions where !admission.admits(region.geometry) {
            if case .polygon = region.geometry, !admission.polygons { polygons += 1 } else { large += 1 }
        }
        guard polygons + large > 0 else { return nil }
        var reasons: [String] = []
        if polygons > 0 {
            let them = polygons == 1 ? "it a candidate" : "them candidates"
            reasons.append(
                "\(polygons) polygon\(polygons == 1 ? "" : "s") (profile \(profile) monitors circles only: "
                    + "--polygons enclosingCircle or monitor (monitor.polygons) makes \(them))")
        }
        if large > 0, let maximum = settings.maximumRadius {
            reasons.append("\(large) larger than the maximum radius (\(Int(maximum)) m, monitor.maximumRadius)")
        }
        let never = polygons + large
        let which =
            never < file.sharedCount
            ? "\(never) of the shared catalog's \(file.sharedCount) regions \(never == 1 ? "is" : "are")"
            : never == 1 ? "the shared catalog's one region is" : "all \(never) regions of the shared catalog are"
        return "under selection nearest \(which) never chosen: \(reasons.joined(separator: "; "))"
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
