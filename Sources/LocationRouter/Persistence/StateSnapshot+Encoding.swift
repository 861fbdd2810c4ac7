import Dispatch
import GeofenceKit

/// A snapshot's text, written straight into bytes, a chunk at a time: a snapshot of a hundred thousand devices is
/// some 90 MB, and building it as strings (a string per region, joined, then appended) took seconds.
extension StateSnapshot {
    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        Self.encode(
            profile: profile, seed: seed, partition: partition, events: events, count: saved.count,
            device: { [saved] in saved[$0] }
        ) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Device lines encoded together, by one core (about a megabyte of bytes).
    static let linesPerPart = 1_024
    /// Parts encoded at once, on every core, before they are emitted in order.
    static let partsPerRound = 16

    /// The bytes of the file of a snapshot of `count` devices, `device(k)` the k-th, emitted in order a part of
    /// ``linesPerPart`` lines at a time: a snapshot of a million devices is a gigabyte, which its writer need not
    /// hold whole (built whole, beside the snapshot of every device, it took 5.3 GB and 39 s to write). The parts
    /// of a round are encoded on every core while the round before is emitted.
    static func encode(
        profile: String, seed: UInt64?, partition: Partition?, events: EventsFile?, count: Int,
        device: @escaping @Sendable (Int) -> Device, emit: (UnsafeRawBufferPointer) -> Void
    ) {
        var text = SnapshotText()
        text.raw("{\"format\":")
        text.string(Self.format)
        text.raw(",\"version\":")
        text.integer(Int64(Self.version))
        text.raw(",\"profile\":")
        text.string(profile)
        if let seed {
            text.raw(",\"seed\":")
            text.integer(seed)
        }
        if let partition {
            text.raw(",\"partition\":")
            text.string("\(partition)")
        }
        text.raw(",\"devices\":")
        text.integer(Int64(count))
        if let events {
            text.raw(",\"events\":{\"path\":")
            text.string(events.path)
            text.raw(",\"bytes\":")
            text.integer(events.bytes)
            text.raw("}")
        }
        text.raw("}\n")
        text.bytes.withUnsafeBytes(emit)
        // Each round is encoded while the round before is emitted (written to the file, for a writer: a copy into
        // the kernel's pages that took a third of the time).
        var emitting: [[UInt8]] = []
        var first = 0
        while first < count || !emitting.isEmpty {
            let round = first..<min(count, first + linesPerPart * partsPerRound)
            let next = RoundInFlight(round, device: device)
            for part in emitting { part.withUnsafeBytes(emit) }
            emitting = next.parts()
            first = round.upperBound
        }
        text.bytes.removeAll()
        text.raw("{\"end\":true,\"devices\":")
        text.integer(Int64(count))
        text.raw("}\n")
        text.bytes.withUnsafeBytes(emit)
    }

    /// A round's parts, encoded on other threads while the caller emits the round before; ``parts()`` waits
    /// for them. (Unchecked: the parts are written before the semaphore is signalled and read after it is waited
    /// on, once.)
    private final class RoundInFlight: @unchecked Sendable {
        private var encoded: [[UInt8]] = []
        private let done = DispatchSemaphore(value: 0)

        init(_ round: Range<Int>, device: @escaping @Sendable (Int) -> Device) {
            DispatchQueue.global().async { [self] in
                encoded = StateSnapshot.encodeRound(round, device: device)
                done.signal()
            }
        }

        func parts() -> [[UInt8]] {
            done.wait()
            return encoded
        }
    }

    /// The lines of the devices of `round`, in parts of ``linesPerPart`` encoded on every core.
    private static func encodeRound(_ round: Range<Int>, device: @Sendable (Int) -> Device) -> [[UInt8]] {
        ParallelFill.array(count: (round.count + linesPerPart - 1) / linesPerPart, smallestPart: 1) { part in
            var text = SnapshotText()
            let start = round.lowerBound + part * linesPerPart
            for index in start..<min(round.upperBound, start + linesPerPart) { text.line(of: device(index)) }
            return text.bytes
        }
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
            integer(device.seq)
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
        integer(value.magnitude)
    }

    /// Decimal digits, without a string (a seed, an event number).
    mutating func integer(_ value: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let count = DecimalDigits.write(value, at: digits.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<count]))
        }
    }
}
