import Foundation

/// The sine and cosine of an angle from the C library in one call: the same two values as its `sin` and `cos`,
/// bit for bit, for about two thirds of their instructions (the argument is reduced once).
///
/// Generated regions and walk starts take the sine and cosine of a random bearing — 20 pairs per device, a
/// quarter of registering a million devices — and a catalog's Earth-centred points and generated circles take
/// several pairs each; all must stay bit for bit what `sin` and `cos` make. glibc's `sincos` is exactly its `sin`
/// and `cos` (the same kernels after the same reduction: no difference over 250 million random bearings of
/// [0, 2π)), but Swift's `Glibc` module leaves it out (a GNU extension), so it is declared here by its symbol; its
/// C signature takes a `Double` and two pointers, which the Swift calling convention passes in the same registers.
/// Elsewhere the two functions are called apart. Inlinable: called apart, the pair cost 20 more instructions (its
/// own frame and the results through memory), and registering a device takes 21 pairs.
package enum SineAndCosine {
    @inlinable @inline(__always)
    package static func of(_ angle: Double) -> (sin: Double, cos: Double) {
        #if os(Linux)
            var sine = 0.0
            var cosine = 0.0
            cLibrarySinCos(angle, &sine, &cosine)
            return (sine, cosine)
        #else
            return (sin(angle), cos(angle))
        #endif
    }
}

extension SineAndCosine {
    /// ``of(_:)`` of `count` angles at once: `sines[i]` and `cosines[i]` of `angles[i]`, the same bits.
    ///
    /// For callers in other modules, where ``of(_:)`` stays a call of its own (with a stack guard for its two
    /// results: 19 instructions a pair): generated regions take the sines and cosines of a device's 20 bearings
    /// in one call.
    package static func of(
        _ angles: UnsafePointer<Double>, count: Int, sines: UnsafeMutablePointer<Double>,
        cosines: UnsafeMutablePointer<Double>
    ) {
        for i in 0..<count {
            #if os(Linux)
                cLibrarySinCos(angles[i], sines + i, cosines + i)
            #else
                (sines[i], cosines[i]) = (sin(angles[i]), cos(angles[i]))
            #endif
        }
    }
}

#if os(Linux)
    /// `void sincos(double x, double *sin, double *cos)` of the C library.
    @usableFromInline @_silgen_name("sincos")
    func cLibrarySinCos(
        _ angle: Double, _ sine: UnsafeMutablePointer<Double>, _ cosine: UnsafeMutablePointer<Double>)
#endif
