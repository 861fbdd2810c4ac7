import Foundation

/// The sine and cosine of an angle from the C library in one call: the same two values as its `sin` and `cos`,
/// bit for bit, for about two thirds of their instructions (the argument is reduced once).
///
/// Walk starts take the sine and cosine of a random bearing, generated regions one per centre where their bounded
/// ones do not decide it (``SineAndCosine/bounded(_:)``), and a catalog's Earth-centred points and generated
/// circles take several pairs each; all must stay bit for bit what `sin` and `cos` make. glibc's `sincos` is
/// exactly its `sin` and `cos` (the same kernels after the same reduction: no difference over 250 million random
/// bearings of [0, 2π)), but Swift's `Glibc` module leaves it out (a GNU extension), so it is declared here by its
/// symbol; its C signature takes a `Double` and two pointers, which the Swift calling convention passes in the same
/// registers.
/// Elsewhere the two functions are called apart. Inlinable: called apart, the pair cost 20 more instructions (its
/// own frame and the results through memory), and registering a device takes a few pairs.
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

#if os(Linux)
    /// `void sincos(double x, double *sin, double *cos)` of the C library.
    @usableFromInline @_silgen_name("sincos")
    func cLibrarySinCos(
        _ angle: Double, _ sine: UnsafeMutablePointer<Double>, _ cosine: UnsafeMutablePointer<Double>)
#endif
