import GeofenceKit
import LocationRouter

/// `check`'s warnings about shared catalogs: larger than a device may monitor under `fileOrder`, or left out.
extension FileCheck {
    /// The smallest slot limit of the profiles (exact and ios: 20; android: 100).
    static let smallestSlotLimit = MonitoringProfile.allCases.map(\.settings.slotLimit).min() ?? 20

    /// Warns when `shared` regions (no `devices`) exceed the slot limit `limit`: registered in file order, those
    /// past it fail on every device; or, below it, when they do with a device's own regions (`ownCounts`).
    mutating func warnAboutCatalog(
        shared: Int, ownCounts: [(device: String, count: Int)] = [], limit: Int = FileCheck.smallestSlotLimit,
        selection: SelectionStrategy? = nil
    ) {
        guard selection != .nearest,
            let past = Scenario.slotLimitWarning(shared: shared, ownCounts: ownCounts, limit: limit)
        else { return }
        warnings.append(InputError(past, field: "catalog"))
    }

    /// The warnings for a config.json's generated catalog (`regions.catalog`): larger than the slot limit, or left
    /// out of the run.
    mutating func warnAboutCatalog(in scenario: Scenario) {
        if let ignored = scenario.ignoredCatalogWarning { warnings.append(InputError(ignored)) }
        guard let catalog = scenario.walk.catalog, scenario.regionsFile == nil else { return }
        warnAboutCatalog(shared: catalog.count, limit: scenario.settings.slotLimit, selection: scenario.selection.strategy)
    }
}
