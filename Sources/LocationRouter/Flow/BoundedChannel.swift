import Synchronization

/// A loss-free, bounded hop between pipeline stages: ``send(_:)`` suspends while `capacity` elements are in
/// flight, and the receiver returns an element's credit by asking for the next one, so no call site can forget to.
///
/// An element is in flight from its send until the receiver comes back for the next element: queued, then being
/// handled. So memory is bounded by `capacity` elements however slow the receiver, nothing is dropped, and a
/// slow last stage holds every stage before it back. Waiting senders go on in FIFO order.
///
/// Any number of tasks may send; one task receives, by iterating (`for try await element in channel`). When every
/// sender is done, one of them calls ``finish()``: the receiver gets what is queued, then the end.
///
/// Cancellation: a waiting send whose task is cancelled throws `CancellationError` (its element was not sent); a
/// cancelled receive throws `CancellationError` and closes the channel, so waiting and later sends throw
/// ``BoundedChannelClosed`` instead of hanging.
///
/// The decisions are made by a pure ``BoundedChannelStateMachine``; this type holds it under a lock and resumes the
/// suspended tasks outside the lock.
public final class BoundedChannel<Element: Sendable>: Sendable {
    typealias SenderContinuation = CheckedContinuation<Void, any Error>
    typealias ReceiverContinuation = CheckedContinuation<Element?, any Error>
    typealias StateMachine = BoundedChannelStateMachine<Element, SenderContinuation, ReceiverContinuation>

    private let state: Mutex<StateMachine>
    /// The most elements in flight at once (those sent without a credit aside).
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(StateMachine(capacity: capacity))
    }

    /// The most elements that were in flight at once: never more than ``capacity``.
    public var peakInFlight: Int { state.withLock { $0.peakInFlight } }
    /// How many sends had to wait (how often back-pressure acted).
    public var waitCount: Int { state.withLock { $0.waitCount } }
    /// Elements queued behind the one the receiver is handling.
    public var queuedCount: Int { state.withLock { $0.queuedCount } }

    /// Sends `element`, waiting while `capacity` elements are in flight.
    /// - Throws: `CancellationError` when the task is cancelled before the element is taken;
    ///   ``BoundedChannelClosed`` when the channel is finished or its receiver was cancelled.
    public func send(_ element: Element, isolation: isolated (any Actor)? = #isolation) async throws {
        try Task.checkCancellation()
        switch state.withLock({ $0.send(element, counted: true) }) {
        case .queued: return
        case .deliver(let receiver, let element): receiver.resume(returning: element)
        case .refuse: throw BoundedChannelClosed()
        case .suspend(let id): try await suspend(id, element, isolation: isolation)
        }
    }

    /// Sends `element` at once, without a credit: for control messages (a snapshot cut) that must not wait behind
    /// the data. Returns `false` when the channel is finished or closed.
    @discardableResult
    func sendWithoutCredit(_ element: Element) -> Bool {
        switch state.withLock({ $0.send(element, counted: false) }) {
        case .queued: return true
        case .deliver(let receiver, let element):
            receiver.resume(returning: element)
            return true
        case .refuse, .suspend: return false
        }
    }

    /// Ends the channel: every sender is done. The receiver gets what is queued, then the end.
    public func finish() {
        state.withLock { $0.finish() }?.resume(returning: nil)
    }

    private func suspend(_ id: UInt64, _ element: Element, isolation: isolated (any Actor)?) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation(isolation: isolation) { (continuation: SenderContinuation) in
                switch state.withLock({ $0.suspendSender(id, continuation, element: element) }) {
                case .suspended: break
                case .resume(let sender, let delivery):
                    if let (receiver, element) = delivery { receiver.resume(returning: element) }
                    sender.resume()
                case .cancelled(let sender): sender.resume(throwing: CancellationError())
                case .refuse(let sender): sender.resume(throwing: BoundedChannelClosed())
                }
            }
        } onCancel: {
            state.withLock { $0.cancelSender(id) }?.resume(throwing: CancellationError())
        }
    }

    /// The next element, after returning the credit of the one before; `nil` at the end.
    func receive(isolation: isolated (any Actor)? = #isolation) async throws -> Element? {
        let id: UInt64
        switch state.withLock({ $0.receive() }) {
        case .element(let element, let sender):
            sender?.resume()
            return element
        case .end: return nil
        case .suspend(let suspendID, let sender):
            sender?.resume()
            id = suspendID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation(isolation: isolation) { (continuation: ReceiverContinuation) in
                switch state.withLock({ $0.suspendReceiver(id, continuation) }) {
                case .suspended: break
                case .resume(let receiver, let element): receiver.resume(returning: element)
                case .cancelled(let receiver, let senders):
                    receiver.resume(throwing: CancellationError())
                    for sender in senders { sender.resume(throwing: BoundedChannelClosed()) }
                }
            }
        } onCancel: {
            let (receiver, senders) = state.withLock { $0.cancelReceiver(id) }
            receiver?.resume(throwing: CancellationError())
            for sender in senders { sender.resume(throwing: BoundedChannelClosed()) }
        }
    }
}

extension BoundedChannel: AsyncSequence {
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: BoundedChannel

        public mutating func next() async throws -> Element? {
            try await channel.receive(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Element? {
            try await channel.receive(isolation: actor)
        }
    }

    /// The receiver's side: iterate it from one task.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: self) }
}

/// A send to a ``BoundedChannel`` that was finished, or whose receiver was cancelled: the element was not taken.
public struct BoundedChannelClosed: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "the channel is closed: its receiver is gone or its senders finished it" }
}

/// A live view of a ``BoundedChannel``'s counters, whatever its element type: what the report and the page read.
public struct ChannelStatistics: Sendable {
    public let capacity: Int
    private let counters: @Sendable () -> (peakInFlight: Int, waitCount: Int)

    init(capacity: Int, counters: @escaping @Sendable () -> (peakInFlight: Int, waitCount: Int)) {
        self.capacity = capacity
        self.counters = counters
    }

    /// The most elements that were in flight at once.
    public var peakInFlight: Int { counters().peakInFlight }
    /// How many sends had to wait so far.
    public var waitCount: Int { counters().waitCount }
}

extension BoundedChannel {
    /// Its counters, to read while it runs and after.
    public var statistics: ChannelStatistics {
        ChannelStatistics(capacity: capacity) { [self] in state.withLock { ($0.peakInFlight, $0.waitCount) } }
    }
}
