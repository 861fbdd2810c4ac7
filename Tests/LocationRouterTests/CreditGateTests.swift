import Synchronization
import Testing
@testable import LocationRouter

/// Counters shared by concurrent test tasks.
private final class Observations: Sendable {
    let inFlight = Atomic<Int>(0)
    let peak = Atomic<Int>(0)
    let resumed = Atomic<Bool>(false)
}

@Suite struct CreditGateTests {
    @Test func producersNeverHaveMoreThanCapacityInFlight() async throws {
        let gate = CreditGate(capacity: 3)
        let seen = Observations()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        try await gate.acquire()
                        let now = seen.inFlight.add(1, ordering: .sequentiallyConsistent).newValue
                        _ = seen.peak.max(now, ordering: .sequentiallyConsistent)
                        await Task.yield()
                        seen.inFlight.subtract(1, ordering: .sequentiallyConsistent)
                        gate.release()
                    }
                }
            }
            try await group.waitForAll()
        }
        let observedPeak = seen.peak.load(ordering: .sequentiallyConsistent)
        #expect(observedPeak <= 3)
        #expect(observedPeak >= 1)
        #expect(gate.peakInFlight <= 3)
    }

    @Test func aWaitingProducerResumesWhenACreditReturns() async throws {
        let gate = CreditGate(capacity: 1)
        let seen = Observations()
        try await gate.acquire()
        let waiter = Task {
            try await gate.acquire()
            seen.resumed.store(true, ordering: .sequentiallyConsistent)
        }
        while gate.waitCount == 0 { await Task.yield() }
        let resumedEarly = seen.resumed.load(ordering: .sequentiallyConsistent)
        #expect(!resumedEarly)
        gate.release()
        try await waiter.value
        let resumedAfterRelease = seen.resumed.load(ordering: .sequentiallyConsistent)
        #expect(resumedAfterRelease)
        #expect(gate.peakInFlight == 1)
    }

    @Test func cancellingAWaitingProducerThrowsAndKeepsTheCreditsRight() async throws {
        let gate = CreditGate(capacity: 1)
        try await gate.acquire()
        let waiter = Task { try await gate.acquire() }
        while gate.waitCount == 0 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        gate.release()
        // The credit is available again: this must not wait.
        try await gate.acquire()
        gate.release()
    }
}
