import GeofenceKit

// Region properties of the platform profiles: Android's transition types and notification responsiveness,
// CLMonitor's assumed state.

extension GeoJSONRegionDecoder {
    /// Reads `transitionTypes` (`["enter","exit","dwell"]`, Android's `setTransitionTypes`: it sets the three notify
    /// flags, and may not be combined with them), `notificationResponsiveness` (seconds ≥ 0) and `assuming`
    /// (`"satisfied"` or `"unsatisfied"`, the state a `CLMonitor` condition starts in).
    static func applyPlatformProperties(_ properties: JSONValue?, path: String, to region: inout Region) throws(InputError) {
        if let value = present(properties?["transitionTypes"]) {
            let typesPath = JSONValue.path(path, key: "transitionTypes")
            for flag in ["notifyOnEntry", "notifyOnExit", "notifyOnDwell"] where present(properties?[flag]) != nil {
                throw value.error("give transitionTypes or \(flag), not both", path: typesPath)
            }
            var types: Set<String> = []
            for (index, element) in try value.array(path: typesPath).enumerated() {
                let elementPath = JSONValue.path(typesPath, index: index)
                let type = try element.string(path: elementPath)
                guard ["enter", "exit", "dwell"].contains(type) else {
                    throw element.error("must be \"enter\", \"exit\" or \"dwell\", found \"\(type)\"", path: elementPath)
                }
                types.insert(type)
            }
            region.notifyOnEntry = types.contains("enter")
            region.notifyOnExit = types.contains("exit")
            region.notifyOnDwell = types.contains("dwell")
        }
        region.notificationResponsiveness = try nonNegative(
            properties, "notificationResponsiveness", unit: "seconds", path: path)
        if let value = present(properties?["assuming"]) {
            let assumingPath = JSONValue.path(path, key: "assuming")
            switch try value.string(path: assumingPath) {
            case "satisfied": region.assumedInside = true
            case "unsatisfied": region.assumedInside = false
            case let other:
                throw value.error("must be \"satisfied\" or \"unsatisfied\", found \"\(other)\"", path: assumingPath)
            }
        }
    }
}
