import Testing
@testable import LocationRouter

/// The test clock the timing tests stand on: sleepers wake in deadline order, only when the time reaches them,
/// and a cancelled sleeper wakes at once.
@Suite struct ManualClockTests {
    @Test func sleepersWakeInDeadlineOrderOnlyWhenTheTimeReachesThem() async throws {
        let clock = ManualClock()
        let woken = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, seconds) in [3, 1, 2].enumerated() {
                group.addTask {
                    try await clock.sleep(until: .seconds(seconds))
                    return index
                }
            }
            await clock.waitForSleepers(count: 3)
            clock.advance(by: .milliseconds(999))
            #expect(clock.pendingDeadlines == [.seconds(1), .seconds(2), .seconds(3)], "no deadline reached yet")
            var woken: [Int] = []
            clock.advance(by: .milliseconds(1))
            woken.append(try #require(try await group.next()))
            #expect(clock.pendingDeadlines == [.seconds(2), .seconds(3)])
            clock.advance(to: .seconds(2))
            woken.append(try #require(try await group.next()))
            clock.advance(to: .seconds(3))
            woken.append(try #require(try await group.next()))
            return woken
        }
        #expect(woken == [1, 2, 0], "in deadline order")
        #expect(clock.now == .seconds(3))
    }

    @Test func aDeadlineAlreadyReachedDoesNotSuspend() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: .seconds(5))
        try await clock.sleep(for: .zero)
        #expect(clock.pendingDeadlines.isEmpty)
    }

    @Test func aCancelledSleeperWakesAtOnceWithCancellationError() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: .seconds(60)) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingDeadlines.isEmpty)
        #expect(clock.now == .zero)
    }

    @Test func advancingToEachDeadlineRunsTimedCodeWithoutWaiting() async throws {
        let clock = ManualClock()
        let ticks = try await clock.advancingToEachDeadline {
            var ticks = 0
            for _ in 0..<100 {
                try await clock.sleep(for: .seconds(3_600))
                ticks += 1
            }
            return ticks
        }
        #expect(ticks == 100)
        #expect(clock.now == .seconds(360_000))
    }
}
