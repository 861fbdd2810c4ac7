import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

@Suite struct LatencyHistogramTests {
    @Test func quantilesAreWithinOnePercentOfTheExactValues() {
        var generator = SplitMix64(seed: 7)
        var values: [UInt64] = []
        var histogram = LatencyHistogram()
        for _ in 0..<20_000 {
            // Log-uniform from 1 µs to 1 s.
            let value = UInt64(1_000 * pow(10, 6 * generator.unit()))
            values.append(value)
            histogram.record(value)
        }
        values.sort()
        for fraction in [0.5, 0.9, 0.99, 0.999] {
            let exact = Double(values[Int((Double(values.count) * fraction).rounded(.up)) - 1])
            let estimate = Double(histogram.quantile(fraction))
            #expect(abs(estimate - exact) / exact < 0.01, "p\(fraction): \(estimate) vs \(exact)")
        }
        #expect(histogram.maximum == values.last)
        #expect(histogram.count == 20_000)
    }

    @Test func smallValuesAreExactAndEmptyHistogramsReportZero() {
        var histogram = LatencyHistogram()
        #expect(histogram.quantile(0.99) == 0)
        for value: UInt64 in [3, 3, 3, 200] { histogram.record(value) }
        #expect(histogram.quantile(0.5) == 3)
        #expect(histogram.quantile(1) == 200)
    }

    @Test func mergingEqualsRecordingEverythingInOne() {
        var a = LatencyHistogram()
        var b = LatencyHistogram()
        var both = LatencyHistogram()
        for value: UInt64 in stride(from: 1_000, to: 5_000_000, by: 9_973) {
            if value % 2 == 0 { a.record(value) } else { b.record(value, times: 2) }
            both.record(value, times: value % 2 == 0 ? 1 : 2)
        }
        a.merge(b)
        #expect(a == both)
    }

}

/// The page's coarse histogram, derived from the fine one, equals recording every value coarsely.
@Suite struct CoarseLatencyHistogramTests {
    @Test func coarseningTheFineHistogramEqualsRecordingEachValue() {
        var generator = SplitMix64(seed: 11)
        var fine = LatencyHistogram()
        var coarse = CoarseLatencyHistogram()
        for _ in 0..<20_000 {
            let value = generator.next() >> UInt64(generator.next() % 60)
            let times = 1 + generator.next() % 3
            fine.record(value, times: times)
            coarse.record(value, times: times)
        }
        #expect(CoarseLatencyHistogram(coarsening: fine) == coarse)
    }
}
