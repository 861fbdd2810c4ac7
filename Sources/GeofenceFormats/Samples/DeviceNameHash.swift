/// The hash of a device name's bytes, computed where the lines are decoded (on every core) so that the router,
/// which numbers devices in line order on one thread, looks a name up with one probe and one comparison.
///
/// Eight bytes at a time through SplitMix64's finaliser, from a seed drawn once per process: names come from the
/// input, and a fixed hash would let a crafted stream of colliding names make every look-up a long probe.
public enum DeviceNameHash {
    public static let seed = UInt64.random(in: .min ... .max)

    @inline(__always)
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var hash = seed ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return mix(hash) }
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = mix(hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var last: UInt64 = 0
            if bytes.count >= 8 {
                // The last eight bytes, overlapping the word before: still a function of the name's bytes alone,
                // in one load instead of a loop over the bytes left.
                last = base.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
            } else {
                for index in offset..<bytes.count { last |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
            }
            hash = mix(hash ^ last)
        }
        return hash
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }
}
