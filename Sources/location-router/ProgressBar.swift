import Foundation

/// The text of the progress line, as a pure function of what the run has done so far (tested without a
/// terminal): a bar with the percentage, simulated time over the total, the rate and the time left when the
/// source knows its total (random walk, files, routes); the counts and the rate when it does not (a stream).
struct ProgressBar {
    var updates: Int
    var events: Int
    /// Wall-clock seconds since the run started.
    var elapsed: Double
    /// Simulated seconds done and in all, when the total is known.
    var simulatedDone: Double?
    var simulatedTotal: Double?

    /// The line, never wider than `columns - 1` characters (a full-width line would wrap on some terminals).
    func line(columns: Int) -> String {
        let rate = elapsed > 0 ? Double(updates) / elapsed : 0
        let counts = "\(grouped(updates)) updates · \(grouped(events)) events · \(Self.rate(rate))"
        guard let total = simulatedTotal, total > 0 else {
            return Self.fit("  " + counts + " · " + Self.clock(elapsed), columns)
        }
        let done = min(max(simulatedDone ?? 0, 0), total)
        let fraction = done / total
        let percent = "\(Int((fraction * 100).rounded(.down)))%".leftPadded(to: 4)
        let simulated = "\(Self.simulated(done, total)) simulated"
        let left = fraction > 0 && fraction < 1 ? "ETA " + Self.clock(elapsed * (1 - fraction) / fraction) : fraction >= 1 ? "draining" : "ETA –"
        let text = " \(percent) · \(simulated) · \(Self.rate(rate)) · \(left)"
        // The bar takes what the text leaves, between 10 and 40 cells.
        let cells = min(40, columns - 1 - text.count - 4)
        guard cells >= 10 else { return Self.fit(text.trimmingCharacters(in: .whitespaces), columns) }
        let full = Int((fraction * Double(cells)).rounded(.down))
        let bar = String(repeating: "█", count: full) + String(repeating: "░", count: cells - full)
        return Self.fit("  [" + bar + "]" + text, columns)
    }

    private static func fit(_ text: String, _ columns: Int) -> String {
        let width = max(10, columns - 1)
        return text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    static func rate(_ perSecond: Double) -> String {
        perSecond >= 1e6 ? "\(decimal(perSecond / 1e6, 2)) M updates/s" : "\(grouped(Int(perSecond))) updates/s"
    }

    /// `42 s`, `3:07`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// `4.5 / 10 min`, `30 / 600 s`, `2.1 / 24 h`: both in the total's unit.
    static func simulated(_ done: Double, _ total: Double) -> String {
        let (divisor, unit): (Double, String) = total >= 7200 ? (3600, "h") : total >= 120 ? (60, "min") : (1, "s")
        return "\(decimal(done / divisor, divisor == 1 ? 0 : 1)) / \(decimal(total / divisor, divisor == 1 ? 0 : 1)) \(unit)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
