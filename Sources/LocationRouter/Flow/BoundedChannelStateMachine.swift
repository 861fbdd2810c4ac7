/// The decisions of a ``BoundedChannel``: a pure value with no locks, tasks or clocks, so every transition is
/// tested as a table of cases.
///
/// An element is *in flight* from the moment it is sent until the receiver asks for the next one (it is queued,
/// then being handled); at most `capacity` counted elements are in flight, and a send beyond that waits. A
/// waiting sender's element is kept here, and moves into the queue, in FIFO order, the moment a credit returns,
/// so a returned credit goes straight to the longest-waiting sender. Elements sent without a credit (control
/// messages such as a snapshot cut) never wait and never count.
///
/// `Sender` and `Receiver` are whatever the owner resumes later (continuations in ``BoundedChannel``, plain
/// numbers in tests); every method returns the ones to resume, which the owner resumes outside its lock.
///
/// There is one receiver at a time. A receive that is cancelled closes the channel: waiting and later sends are
/// refused (they throw, so no element is lost silently), and later receives end.
struct BoundedChannelStateMachine<Element, Sender, Receiver> {
    let capacity: Int
    private var queue: [(element: Element, counted: Bool)] = []
    private var waitingSenders: [(id: UInt64, sender: Sender, element: Element)] = []
    /// Sends told to suspend that have not suspended yet, and those of them cancelled meanwhile.
    private var announcedSenders: Set<UInt64> = []
    private var cancelledSenders: Set<UInt64> = []
    private var waitingReceiver: (id: UInt64, receiver: Receiver)?
    private var announcedReceiver: UInt64?
    private var receiverCancelledEarly = false
    /// Whether the element the receiver holds took a credit (returned when it asks for the next).
    private var receiverHoldsCredit = false
    private var lastID: UInt64 = 0
    private var isFinished = false
    private var isClosed = false

    /// Counted elements queued or being handled.
    private(set) var inFlight = 0
    /// The most counted elements in flight at once: never more than ``capacity``.
    private(set) var peakInFlight = 0
    /// How many sends had to wait for a credit (how often back-pressure acted).
    private(set) var waitCount = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a channel holds at least one element")
        self.capacity = capacity
    }

    /// Elements queued behind the one being handled.
    var queuedCount: Int { queue.count }

    enum SendAction {
        /// The element is queued.
        case queued
        /// The receiver was waiting: resume it with the element.
        case deliver(Receiver, Element)
        /// No credit is free: suspend as wait `id` (see ``suspendSender(_:_:element:)``).
        case suspend(id: UInt64)
        /// The channel is finished or closed: the element was not taken.
        case refuse
    }

    /// A send; `counted: false` sends without a credit and never suspends.
    mutating func send(_ element: Element, counted: Bool) -> SendAction {
        guard !isFinished && !isClosed else { return .refuse }
        guard !counted || inFlight < capacity else {
            waitCount += 1
            lastID &+= 1
            announcedSenders.insert(lastID)
            return .suspend(id: lastID)
        }
        return enqueue(element, counted: counted).map { .deliver($0.0, $0.1) } ?? .queued
    }

    enum SuspendSenderAction {
        /// The sender waits for a credit.
        case suspended
        /// A credit came free meanwhile: the element is taken; resume the sender, and the receiver if one waits.
        case resume(Sender, deliver: (Receiver, Element)?)
        /// The send was cancelled before it suspended: resume the sender with `CancellationError`.
        case cancelled(Sender)
        /// The channel was closed meanwhile: resume the sender with an error.
        case refuse(Sender)
    }

    /// Suspends send `id` (after ``send(_:counted:)`` said `.suspend`), keeping its element until a credit returns.
    mutating func suspendSender(_ id: UInt64, _ sender: Sender, element: Element) -> SuspendSenderAction {
        announcedSenders.remove(id)
        if cancelledSenders.remove(id) != nil { return .cancelled(sender) }
        if isClosed { return .refuse(sender) }
        guard inFlight >= capacity else {
            return .resume(sender, deliver: enqueue(element, counted: true))
        }
        waitingSenders.append((id, sender, element))
        return .suspended
    }

    /// Cancels send `id`: returns its sender (to resume with `CancellationError`; its element was not sent) when it
    /// was waiting; one that has not suspended yet is refused when it does; one that is done is left alone.
    mutating func cancelSender(_ id: UInt64) -> Sender? {
        if let index = waitingSenders.firstIndex(where: { $0.id == id }) {
            return waitingSenders.remove(at: index).sender
        }
        if announcedSenders.remove(id) != nil { cancelledSenders.insert(id) }
        return nil
    }

    enum ReceiveAction {
        /// The next element; `resuming` is a sender whose element took the returned credit.
        case element(Element, resuming: Sender?)
        /// Every sender is done and the queue is empty (or the channel is closed).
        case end
        /// Nothing queued yet: suspend as wait `id` (see ``suspendReceiver(_:_:)``).
        case suspend(id: UInt64, resuming: Sender?)
    }

    /// A receive: returns the credit of the element received before, then takes the next element.
    mutating func receive() -> ReceiveAction {
        precondition(waitingReceiver == nil && announcedReceiver == nil, "a channel has one receiver at a time")
        let resumed = returnCredit()
        if !queue.isEmpty { return .element(dequeue(), resuming: resumed) }
        if isFinished || isClosed { return .end }
        lastID &+= 1
        announcedReceiver = lastID
        return .suspend(id: lastID, resuming: resumed)
    }

    enum SuspendReceiverAction {
        case suspended
        /// Resume the receiver with an element, or with the end (`nil`).
        case resume(Receiver, Element?)
        /// The receive was cancelled before it suspended: resume it with `CancellationError`, and the waiting senders
        /// with an error (the channel is closed).
        case cancelled(Receiver, refusing: [Sender])
    }

    /// Suspends receive `id` (after ``receive()`` said `.suspend`) until an element arrives or the senders finish.
    mutating func suspendReceiver(_ id: UInt64, _ receiver: Receiver) -> SuspendReceiverAction {
        announcedReceiver = nil
        if receiverCancelledEarly {
            receiverCancelledEarly = false
            return .cancelled(receiver, refusing: close())
        }
        if !queue.isEmpty { return .resume(receiver, dequeue()) }
        if isFinished || isClosed { return .resume(receiver, nil) }
        waitingReceiver = (id, receiver)
        return .suspended
    }

    /// Cancels receive `id`, closing the channel: returns the receiver to resume with `CancellationError` (when it
    /// was waiting) and the waiting senders to refuse.
    mutating func cancelReceiver(_ id: UInt64) -> (receiver: Receiver?, refusing: [Sender]) {
        if let waiting = waitingReceiver, waiting.id == id {
            waitingReceiver = nil
            return (waiting.receiver, close())
        }
        if announcedReceiver == id { receiverCancelledEarly = true }
        return (nil, [])
    }

    /// The senders are done: the receiver gets what is queued, then the end. Returns the waiting receiver, to
    /// resume with the end.
    mutating func finish() -> Receiver? {
        isFinished = true
        // A waiting receiver means an empty queue, and no waiting sender (they would hold credits).
        defer { waitingReceiver = nil }
        return waitingReceiver?.receiver
    }

    private mutating func enqueue(_ element: Element, counted: Bool) -> (Receiver, Element)? {
        if counted {
            inFlight += 1
            peakInFlight = max(peakInFlight, inFlight)
        }
        guard let waiting = waitingReceiver else {
            queue.append((element, counted))
            return nil
        }
        waitingReceiver = nil
        receiverHoldsCredit = counted
        return (waiting.receiver, element)
    }

    private mutating func dequeue() -> Element {
        let (element, counted) = queue.removeFirst()
        receiverHoldsCredit = counted
        return element
    }

    /// Returns the receiver's credit, moving the longest-waiting sender's element in with it.
    private mutating func returnCredit() -> Sender? {
        guard receiverHoldsCredit else { return nil }
        receiverHoldsCredit = false
        inFlight -= 1
        guard !waitingSenders.isEmpty, !isClosed else { return nil }
        let next = waitingSenders.removeFirst()
        _ = enqueue(next.element, counted: true)  // no receiver waits: the one receiver is here
        return next.sender
    }

    private mutating func close() -> [Sender] {
        isClosed = true
        queue.removeAll()
        defer { waitingSenders.removeAll() }
        return waitingSenders.map(\.sender)
    }
}

extension BoundedChannelStateMachine: Sendable where Element: Sendable, Sender: Sendable, Receiver: Sendable {}
extension BoundedChannelStateMachine.SendAction: Sendable where Element: Sendable, Receiver: Sendable {}
extension BoundedChannelStateMachine.SuspendSenderAction: Sendable
where Element: Sendable, Sender: Sendable, Receiver: Sendable {}
extension BoundedChannelStateMachine.ReceiveAction: Sendable where Element: Sendable, Sender: Sendable {}
extension BoundedChannelStateMachine.SuspendReceiverAction: Sendable
where Element: Sendable, Sender: Sendable, Receiver: Sendable {}
