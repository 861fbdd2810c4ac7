import Synchronization
import Testing
@testable import LocationRouter

/// The channel with real tasks: bounded, loss-free, ordered per sender, and never hanging on cancellation.
@Suite struct BoundedChannelTests {
    @Test func everyElementArrivesInEachSendersOrderAndNoMoreThanCapacityAreInFlight() async throws {
        let channel = BoundedChannel<(sender: Int, index: Int)>(capacity: 3)
        let received = try await withThrowingTaskGroup(of: [(sender: Int, index: Int)]?.self) { group in
            group.addTask {
                var received: [(sender: Int, index: Int)] = []
                for try await element in channel {
                    received.append(element)
                    await Task.yield()
                }
                return received
            }
            group.addTask {
                try await withThrowingTaskGroup(of: Void.self) { senders in
                    for sender in 0..<8 {
                        senders.addTask { for index in 0..<50 { try await channel.send((sender, index)) } }
                    }
                    try await senders.waitForAll()
                }
                channel.finish()
                return nil
            }
            var received: [(sender: Int, index: Int)] = []
            for try await result in group { if let result { received = result } }
            return received
        }
        #expect(received.count == 400)
        for sender in 0..<8 {
            #expect(received.filter { $0.sender == sender }.map(\.index) == Array(0..<50))
        }
        #expect(channel.peakInFlight <= 3)
        #expect(channel.peakInFlight >= 1)
        #expect(channel.waitCount > 0, "eight senders against three credits must wait")
    }

    @Test func aWaitingSenderGoesOnWhenTheReceiverAsksForTheNextElement() async throws {
        let channel = BoundedChannel<Int>(capacity: 1)
        let sent = Atomic<Bool>(false)
        try await channel.send(1)
        let sender = Task {
            try await channel.send(2)
            sent.store(true, ordering: .sequentiallyConsistent)
        }
        while channel.waitCount == 0 { await Task.yield() }
        let sentBeforeReceiving = sent.load(ordering: .sequentiallyConsistent)
        #expect(!sentBeforeReceiving)
        var iterator = channel.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        // The receiver holds element 1's credit until it asks again: the sender still waits.
        let sentWhileHandling = sent.load(ordering: .sequentiallyConsistent)
        #expect(!sentWhileHandling)
        #expect(try await iterator.next() == 2)
        try await sender.value
        let sentAtLast = sent.load(ordering: .sequentiallyConsistent)
        #expect(sentAtLast)
        #expect(channel.peakInFlight == 1)
    }

    @Test func aCancelledWaitingSenderThrowsAndItsElementIsNotDelivered() async throws {
        let channel = BoundedChannel<Int>(capacity: 1)
        try await channel.send(1)
        let sender = Task { try await channel.send(2) }
        while channel.waitCount == 0 { await Task.yield() }
        sender.cancel()
        await #expect(throws: CancellationError.self) { try await sender.value }
        #expect(channel.queuedCount == 1)
        // The credits are right: the next sender waits only until 1 is handled.
        let next = Task { try await channel.send(3) }
        var iterator = channel.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 3)
        try await next.value
        channel.finish()
        #expect(try await iterator.next() == nil)
    }

    @Test func aCancelledReceiverReleasesAWaitingSenderWithAnError() async throws {
        let channel = BoundedChannel<Int>(capacity: 1)
        let receiver = Task {
            var iterator = channel.makeAsyncIterator()
            _ = try await iterator.next()  // takes 1 and holds its credit
            return try await iterator.next()  // waits: 2 is not sent
        }
        try await channel.send(1)
        while channel.peakInFlight == 0 || channel.queuedCount > 0 { await Task.yield() }
        receiver.cancel()
        await #expect(throws: CancellationError.self) { try await receiver.value }
        await #expect(throws: BoundedChannelClosed.self) { try await channel.send(2) }
    }

    @Test func aFinishedChannelHandsOverWhatIsQueuedThenEnds() async throws {
        let channel = BoundedChannel<Int>(capacity: 4)
        for value in 1...3 { try await channel.send(value) }
        channel.finish()
        await #expect(throws: BoundedChannelClosed.self) { try await channel.send(4) }
        var received: [Int] = []
        for try await value in channel { received.append(value) }
        #expect(received == [1, 2, 3])
    }

    @Test func anElementSentWithoutCreditPassesAFullChannel() async throws {
        let channel = BoundedChannel<Int>(capacity: 1)
        try await channel.send(1)
        #expect(channel.sendWithoutCredit(99))
        channel.finish()
        #expect(!channel.sendWithoutCredit(100))
        var received: [Int] = []
        for try await value in channel { received.append(value) }
        #expect(received == [1, 99])
        #expect(channel.waitCount == 0)
    }
}
