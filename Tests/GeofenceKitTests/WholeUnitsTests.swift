import Testing

@testable import GeofenceKit

/// ``WholeUnits`` rounds without `Int(_:)`'s checks: each bound must fall on its side of the value and within one
/// unit of it, whole numbers, halves and their neighbours included.
@Suite struct WholeUnitsTests {
    static var values: [Double] {
        var rng = SplitMix64(seed: 15)
        var values: [Double] = [0, 0.25, 0.5, 0.75, 1, 1.5, 2.5, 65_534, 65_534.5, 65_535, 0x1p50, 0x1p50 - 0.5]
        for whole in [1.0, 2, 3, 7, 8, 100, 40_000, 65_534, 0x1p40] {
            values += [whole, whole + 0.5, whole.nextUp, whole.nextDown, (whole + 0.5).nextUp, (whole + 0.5).nextDown]
        }
        for _ in 0..<100_000 { values.append(rng.uniform(0...70_000)) }
        for _ in 0..<10_000 { values.append(rng.uniform(0...0x1p50)) }
        return values
    }

    @Test func atMostIsAWholeNumberAtMostOneUnitBelow() {
        for x in Self.values {
            let n = WholeUnits.atMost(x)
            #expect(Double(n) <= x && Double(n) >= x - 1, "\(x) -> \(n)")
            #expect(n == Int(x) || (Double(Int(x)) == x && n == Int(x) - 1) || x - x.rounded(.down) == 0.5, "\(x) -> \(n)")
        }
    }

    @Test func atLeastIsAWholeNumberAtMostOneUnitAbove() {
        for x in Self.values {
            let n = WholeUnits.atLeast(x)
            #expect(Double(n) >= x && Double(n) <= x + 1, "\(x) -> \(n)")
        }
    }

    /// `floor` is `Int(_:)`'s truncation for the values it takes (the plane's whole degree: `latitude + 90.5`).
    @Test func floorIsIntsTruncation() {
        var latitudes: [Double] = []
        for degrees in -90...90 {
            let whole = Double(degrees)
            latitudes += [whole, whole.nextUp, whole.nextDown, whole + 0.5, (whole + 0.5).nextUp, (whole + 0.5).nextDown]
            latitudes += [whole - 0.5, (whole - 0.5).nextUp, (whole - 0.5).nextDown]
        }
        var rng = SplitMix64(seed: 16)
        for _ in 0..<100_000 { latitudes.append(rng.uniform(-90...90)) }
        for latitude in latitudes where abs(latitude) <= 90 {
            let x = latitude + 90.5
            #expect(WholeUnits.floor(x) == Int(x), "\(latitude)")
        }
        for x in Self.values { #expect(WholeUnits.floor(x) == Int(x), "\(x)") }
    }

    /// A clearance stored in a slot's record never exceeds the distance it was given.
    @Test func aStoredClearanceIsALowerBound() {
        var record = PackedRegion(latitude: 0, longitude: 0, radius: 10)
        for x in Self.values where x <= 9_000 {
            let metres = x * PackedRegion.clearanceUnit
            record.setClearance(metres: metres)
            #expect(Double(record.clearance) * PackedRegion.clearanceUnit <= metres, "\(metres)")
            #expect(Double(record.clearance) * PackedRegion.clearanceUnit >= min(metres, 8_191.875) - 2 * PackedRegion.clearanceUnit)
        }
        record.setClearance(metres: .nan)
        #expect(record.clearance == 0)
        record.setClearance(metres: -3)
        #expect(record.clearance == 0)
        record.setClearance(metres: 1e9)
        #expect(record.clearance == .max)
    }
}
