import GeofenceKit

// Region properties: the notification flags, the device list and the non-negative numbers.

extension GeoJSONRegionDecoder {
    static func optionalBool(_ properties: JSONValue?, _ key: String, path: String) throws(InputError)
        -> Bool?
    {
        try present(properties?[key])?.bool(path: JSONValue.path(path, key: key))
    }

    static func devices(_ properties: JSONValue?, path: String, warnings: inout [InputError])
        throws(InputError) -> [String]?
    {
        guard let value = present(properties?["devices"]) else { return nil }
        let devicesPath = JSONValue.path(path, key: "devices")
        let elements = try value.array(path: devicesPath)
        if elements.isEmpty {
            warnings.append(value.error("empty: no device monitors this region", path: devicesPath))
        }
        var devices: [String] = []
        devices.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let elementPath = JSONValue.path(devicesPath, index: index)
            let device = try element.string(path: elementPath)
            guard !device.isEmpty else { throw element.error("must not be empty", path: elementPath) }
            devices.append(device)
        }
        return devices
    }

    /// An optional property that must be a finite number ≥ 0 (a delay, a distance).
    static func nonNegative(
        _ properties: JSONValue?, _ key: String, unit: String, path: String
    ) throws(InputError) -> Double? {
        guard let value = present(properties?[key]) else { return nil }
        let keyPath = JSONValue.path(path, key: key)
        let number = try value.number(path: keyPath)
        guard number.isFinite, number >= 0 else { throw value.error("must be ≥ 0 \(unit)", path: keyPath) }
        return number
    }
}
