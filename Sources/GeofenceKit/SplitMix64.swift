/// A small, fast, seedable generator (Steele, Lea & Flood's SplitMix64), so that the same seed gives the
/// same traffic on every machine and Swift version — unlike `SystemRandomNumberGenerator`.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one stream of a run: `seed` mixed with a stream number and a purpose, so that
    /// devices (and, for one device, its walk and its regions) draw independent numbers.
    public init(seed: UInt64, stream: UInt64, purpose: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15) ^ (purpose &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Skips `draws` numbers: the generator then gives what it would after `draws` calls of ``next()`` (its state
    /// only counts up by a constant per number), so that parts of one stream can be drawn on different cores.
    @inlinable
    public mutating func skip(_ draws: Int) {
        state &+= 0x9E37_79B9_7F4A_7C15 &* UInt64(draws)
    }

    /// A uniform number in [0, 1) with 53 random bits.
    @inlinable
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform number in `range`.
    @inlinable
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }
}
