import GeofenceKit

/// A snapshot's text, written straight into bytes: a snapshot of a hundred thousand devices is some 90 MB, and
/// building it as strings (a string per region, joined, then appended) took seconds.
extension StateSnapshot {
    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var text = SnapshotText()
        text.bytes.reserveCapacity(256 + devices.count * 64)
        text.raw("{\"format\":")
        text.string(Self.format)
        text.raw(",\"version\":")
        text.integer(Int64(Self.version))
        text.raw(",\"profile\":")
        text.string(profile)
        if let seed {
            text.raw(",\"seed\":")
            text.bytes.append(contentsOf: String(seed).utf8)
        }
        if let partition {
            text.raw(",\"partition\":")
            text.string("\(partition)")
        }
        text.raw(",\"devices\":")
        text.integer(Int64(devices.count))
        if let events {
            text.raw(",\"events\":{\"path\":")
            text.string(events.path)
            text.raw(",\"bytes\":")
            text.integer(events.bytes)
            text.raw("}")
        }
        text.raw("}\n")
        for device in devices { text.line(of: device) }
        text.raw("{\"end\":true,\"devices\":")
        text.integer(Int64(devices.count))
        text.raw("}\n")
        return text.bytes
    }
}

private struct SnapshotText {
    var bytes: [UInt8] = []

    mutating func line(of device: StateSnapshot.Device) {
        raw("{\"device\":")
        string(device.name)
        raw(",\"time\":")
        integer(device.time)
        raw(",\"lat\":")
        ShortestDouble.append(device.latitude, to: &bytes)
        raw(",\"lon\":")
        ShortestDouble.append(device.longitude, to: &bytes)
        raw(",\"regions\":[")
        for (index, region) in device.regions.enumerated() {
            raw(index == 0 ? "{\"id\":" : ",{\"id\":")
            string(region.id)
            raw(",\"inside\":")
            bool(region.inside)
            if let since = region.pendingSince {
                raw(",\"pendingSince\":")
                integer(since)
            }
            if let due = region.dwellDue {
                raw(",\"dwellDue\":")
                integer(due)
            }
            if let appInside = region.appInside {
                raw(",\"appInside\":")
                bool(appInside)
            }
            raw("}")
        }
        raw("],\"failed\":[")
        for (index, region) in device.failed.enumerated() {
            if index > 0 { raw(",") }
            string(region)
        }
        raw("]")
        if let delivered = device.deliveredUntil {
            raw(",\"deliveredUntil\":")
            integer(delivered)
        }
        if let chosen = device.chosen {
            raw(",\"chosen\":{\"lat\":")
            ShortestDouble.append(chosen.latitude, to: &bytes)
            raw(",\"lon\":")
            ShortestDouble.append(chosen.longitude, to: &bytes)
            raw(",\"time\":")
            integer(chosen.time)
            raw("}")
        }
        if let coverage = device.coverage {
            raw(",\"coverage\":{\"inside\":[")
            for (index, region) in coverage.inside.enumerated() {
                if index > 0 { raw(",") }
                string(region)
            }
            raw("],\"open\":[")
            for (index, transition) in coverage.open.enumerated() {
                raw(index == 0 ? "{\"id\":" : ",{\"id\":")
                string(transition.id)
                raw(transition.kind == .enter ? ",\"kind\":\"enter\",\"time\":" : ",\"kind\":\"exit\",\"time\":")
                integer(transition.time)
                raw("}")
            }
            raw("]}")
        }
        if device.seq > 0 {
            raw(",\"seq\":")
            bytes.append(contentsOf: String(device.seq).utf8)
        }
        raw("}\n")
    }

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func string(_ text: String) {
        EventEncoder.appendQuoted(text, to: &bytes)
    }

    mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// Decimal digits, without a string.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
