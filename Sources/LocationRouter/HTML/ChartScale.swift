/// A linear mapping from data values to pixels, with round tick values.
struct ChartScale {
    var domain: (low: Double, high: Double)
    var range: (low: Double, high: Double)

    /// A scale over `values` (from 0 unless `fromZero` is false), widened to round ticks.
    init(values: [Double], range: (Double, Double), fromZero: Bool = true, tickCount: Int = 5) {
        var low = values.min() ?? 0
        var high = values.max() ?? 1
        if fromZero { low = min(0, low) }
        if !(high > low) { high = low + 1 }
        let step = Self.niceStep((high - low) / Double(max(1, tickCount)))
        domain = ((low / step).rounded(.down) * step, (high / step).rounded(.up) * step)
        self.range = range
    }

    init(domain: (Double, Double), range: (Double, Double)) {
        self.domain = domain.1 > domain.0 ? domain : (domain.0, domain.0 + 1)
        self.range = range
    }

    func callAsFunction(_ value: Double) -> Double {
        range.low + (value - domain.low) / (domain.high - domain.low) * (range.high - range.low)
    }

    /// Round values between the domain's ends, about `count` of them.
    func ticks(_ count: Int = 5) -> [Double] {
        let step = Self.niceStep((domain.high - domain.low) / Double(max(1, count)))
        var value = (domain.low / step).rounded(.up) * step
        var ticks: [Double] = []
        while value <= domain.high + step * 1e-9, ticks.count < 50 {
            ticks.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return ticks
    }

    /// 1, 2 or 5 × a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        for factor in [1.0, 2, 5, 10] where factor * power >= raw { return factor * power }
        return 10 * power
    }
}

/// The colours of the page, one per event kind and a cycle for profiles and tracks.
enum PageColours {
    static func event(_ kind: String) -> String {
        switch kind {
        case "enter": "#2e7d32"
        case "exit": "#c62828"
        case "dwell": "#1565c0"
        case "state": "#757575"
        case "failed": "#6a1b9a"
        default: "#ef6c00"
        }
    }
    static let cycle = ["#1565c0", "#ef6c00", "#2e7d32", "#c62828", "#6a1b9a", "#00838f", "#ad1457", "#5d4037"]
    static func cycled(_ index: Int) -> String { cycle[index % cycle.count] }
}
