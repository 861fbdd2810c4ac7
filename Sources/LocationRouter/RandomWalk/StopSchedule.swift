import Foundation
import GeofenceKit

/// One random-walk device's alternation of moving and stopped periods (``RandomWalkStops``), in time steps, drawn
/// from its own generator: asked with non-decreasing steps.
struct StopSchedule: Sendable {
    private var rng: SplitMix64
    private var stopped: Bool
    /// The first step of the next period.
    private var nextSwitch: Int
    private let stopSteps: Double
    private let moveSteps: Double

    init(stops: RandomWalkStops, interval: Double, rng: SplitMix64) {
        self.rng = rng
        let share = min(1, max(0, stops.share))
        stopSteps = max(stops.meanLength, interval) / interval
        moveSteps = share >= 1 ? .infinity : stopSteps * (1 - share) / share
        // Start in either state with its long-run share.
        stopped = self.rng.unit() < share
        nextSwitch = 0
        nextSwitch = length(stopped ? stopSteps : moveSteps)
    }

    /// Whether the device stands still during the step that ends at `step`.
    mutating func isStopped(atStep step: Int) -> Bool {
        while step >= nextSwitch {
            stopped.toggle()
            nextSwitch += length(stopped ? stopSteps : moveSteps)
        }
        return stopped
    }

    /// An exponential length of `mean` steps, at least one step (a stop forever when the mean is infinite).
    private mutating func length(_ mean: Double) -> Int {
        guard mean.isFinite else { return .max / 2 }
        let draw = -mean * log(1 - rng.unit())
        return max(1, Int(min(draw.rounded(), 1e15)))
    }
}
