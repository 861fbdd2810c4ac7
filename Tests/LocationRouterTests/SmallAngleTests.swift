import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

@Suite struct SmallAngleTests {
    /// Within one ulp of the C library's sine and cosine over the whole range, its ends and zero included.
    @Test func sineAndCosineAreWithinAnUlpOfTheLibrarys() {
        var rng = SplitMix64(seed: 7)
        var angles: [Double] = [0, -0.0, SmallAngle.limit, -SmallAngle.limit, 1e-300, 0.3, 0.78125]
        for _ in 0..<200_000 { angles.append((2 * rng.unit() - 1) * SmallAngle.limit) }
        for x in angles {
            let (sine, cosine) = SmallAngle.sinCos(x)
            #expect(abs(sine - sin(x)) <= sin(x).magnitude.ulp, "sin \(x)")
            #expect(abs(cosine - cos(x)) <= cos(x).ulp, "cos \(x)")
        }
    }
}
