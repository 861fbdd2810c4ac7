import Foundation

/// How much memory a run may take, decided before it starts, so that a run too large for the machine is refused
/// with a clear message instead of being killed (or aborting) half-way.
///
/// Measured at 1,000,000 devices × 20 regions: about 1.6 KB per device — a device's clock, position and slot
/// range (about 200 bytes, with the source's share) and about 70 bytes per monitored region (its packed
/// geometry, identifier, flags and timers). ``bytesPerDevice(regions:)`` rounds that up.
public enum MemoryBudget {
    /// The share of the available memory a run may plan to use.
    public static let usableShare = 0.8

    /// Bytes one device takes that monitors `regions` regions (an estimate that errs on the high side).
    public static func bytesPerDevice(regions: Int) -> Int {
        224 + 72 * max(0, regions)
    }

    /// Memory the system can give this process now: `MemAvailable` on Linux, the physical memory elsewhere.
    public static func availableBytes() -> UInt64 {
        #if os(Linux)
        if let kilobytes = ProcessResources.kilobytes("MemAvailable", in: "/proc/meminfo") { return UInt64(kilobytes) * 1024 }
        #endif
        return ProcessInfo.processInfo.physicalMemory
    }

    /// The most devices monitoring `regions` regions each that fit in the usable share of `available` bytes.
    public static func maxDevices(regions: Int, available: UInt64 = availableBytes()) -> Int {
        Int(Double(available) * usableShare) / bytesPerDevice(regions: regions)
    }

    /// `nil` when `devices` devices of `regions` regions each fit; otherwise why not, for the user.
    public static func refusal(devices: Int, regions: Int, available: UInt64 = availableBytes()) -> String? {
        let limit = maxDevices(regions: regions, available: available)
        guard devices > limit else { return nil }
        let needed = Double(devices) * Double(bytesPerDevice(regions: regions))
        return "\(devices) devices × \(regions) regions need about \(gigabytes(needed)) (about "
            + "\(bytesPerDevice(regions: regions)) bytes per device), more than the \(gigabytes(Double(available) * usableShare)) "
            + "this machine can give a run now (\(Int(usableShare * 100)) % of \(gigabytes(Double(available))) available): "
            + "at most \(limit) devices fit; split the run with --partition on several machines, or monitor fewer regions"
    }

    private static func gigabytes(_ bytes: Double) -> String {
        String(format: "%.1f GB", bytes / 1e9)
    }
}
