import Testing
@testable import LocationRouter

/// The channel's decisions, step by step, with numbers standing for the suspended senders and receiver.
@Suite struct BoundedChannelStateMachineTests {
    typealias Machine = BoundedChannelStateMachine<String, Int, Int>

    /// One step of a script, and what it must return.
    enum Step: Sendable, CustomStringConvertible {
        case send(String, expect: String)
        case sendWithoutCredit(String, expect: String)
        case suspendSender(sender: Int, String, expect: String)
        case cancelSender(expect: String)
        case receive(expect: String)
        case suspendReceiver(receiver: Int, expect: String)
        case cancelReceiver(expect: String)
        case finish(expect: String)
        case inFlight(Int)

        var description: String {
            switch self {
            case .send(let element, _): "send \(element)"
            case .sendWithoutCredit(let element, _): "send \(element) without credit"
            case .suspendSender(let sender, let element, _): "suspend sender \(sender) with \(element)"
            case .cancelSender: "cancel the last sender"
            case .receive: "receive"
            case .suspendReceiver(let receiver, _): "suspend receiver \(receiver)"
            case .cancelReceiver: "cancel the receiver"
            case .finish: "finish"
            case .inFlight(let count): "in flight: \(count)"
            }
        }
    }

    static let scripts: [(name: String, capacity: Int, steps: [Step])] = [
        ("sends up to capacity queue, the next one suspends", 2, [
            .send("a", expect: "queued"), .send("b", expect: "queued"), .inFlight(2), .send("c", expect: "suspend"),
        ]),
        ("a receive returns the earlier credit to the waiting sender, whose element joins the queue", 1, [
            .send("a", expect: "queued"), .receive(expect: "a"), .send("b", expect: "suspend"),
            .suspendSender(sender: 7, "b", expect: "suspended"), .inFlight(1),
            .receive(expect: "b resuming 7"), .inFlight(1), .receive(expect: "suspend"), .inFlight(0),
        ]),
        ("the element being handled holds its credit until the next receive", 1, [
            .send("a", expect: "queued"), .receive(expect: "a"), .inFlight(1), .send("b", expect: "suspend"),
        ]),
        ("a credit freed before the sender suspends lets it go on at once", 1, [
            .send("a", expect: "queued"), .send("b", expect: "suspend"), .receive(expect: "a"),
            .receive(expect: "suspend"), .suspendSender(sender: 3, "b", expect: "resume 3"),
        ]),
        ("a waiting receiver gets the next element straight away", 2, [
            .receive(expect: "suspend"), .suspendReceiver(receiver: 9, expect: "suspended"),
            .send("a", expect: "deliver a to 9"), .inFlight(1),
        ]),
        ("an element sent without credit never waits and never counts", 1, [
            .send("a", expect: "queued"), .sendWithoutCredit("cut", expect: "queued"), .inFlight(1),
            .receive(expect: "a"), .receive(expect: "cut"), .inFlight(0), .receive(expect: "suspend"),
        ]),
        ("finishing ends the receiver after what is queued", 2, [
            .send("a", expect: "queued"), .finish(expect: "none"), .send("b", expect: "refuse"),
            .receive(expect: "a"), .receive(expect: "end"), .receive(expect: "end"),
        ]),
        ("finishing resumes a waiting receiver with the end", 2, [
            .receive(expect: "suspend"), .suspendReceiver(receiver: 4, expect: "suspended"), .finish(expect: "4"),
        ]),
        ("a cancelled waiting sender is handed back and the others keep their order", 1, [
            .send("a", expect: "queued"), .send("b", expect: "suspend"), .suspendSender(sender: 1, "b", expect: "suspended"),
            .cancelSender(expect: "1"), .receive(expect: "a"), .receive(expect: "suspend"), .inFlight(0),
        ]),
        ("a sender cancelled before it suspends is refused when it does", 1, [
            .send("a", expect: "queued"), .send("b", expect: "suspend"), .cancelSender(expect: "none"),
            .suspendSender(sender: 2, "b", expect: "cancelled 2"), .receive(expect: "a"), .receive(expect: "suspend"),
        ]),
        ("a cancelled waiting receiver closes the channel", 1, [
            .receive(expect: "suspend"), .suspendReceiver(receiver: 8, expect: "suspended"),
            .cancelReceiver(expect: "8 refusing []"), .send("a", expect: "refuse"), .receive(expect: "end"),
        ]),
        ("a receiver cancelled before it suspends is cancelled when it does, refusing the waiting senders", 1, [
            .receive(expect: "suspend"), .send("a", expect: "queued"), .send("b", expect: "suspend"),
            .suspendSender(sender: 5, "b", expect: "suspended"), .cancelReceiver(expect: "none refusing []"),
            .suspendReceiver(receiver: 2, expect: "cancelled 2 refusing [5]"), .send("c", expect: "refuse"),
            .receive(expect: "end"),
        ]),
    ]

    @Test(arguments: scripts.indices)
    func script(_ index: Int) {
        let script = Self.scripts[index]
        var machine = Machine(capacity: script.capacity)
        var lastSuspendedSend: UInt64 = 0
        var lastSuspendedReceive: UInt64 = 0
        for (number, step) in script.steps.enumerated() {
            let outcome: String
            let expected: String
            switch step {
            case .send(let element, let expect), .sendWithoutCredit(let element, let expect):
                let counted = if case .send = step { true } else { false }
                expected = expect
                switch machine.send(element, counted: counted) {
                case .queued: outcome = "queued"
                case .deliver(let receiver, let element): outcome = "deliver \(element) to \(receiver)"
                case .suspend(let id):
                    lastSuspendedSend = id
                    outcome = "suspend"
                case .refuse: outcome = "refuse"
                }
            case .suspendSender(let sender, let element, let expect):
                expected = expect
                switch machine.suspendSender(lastSuspendedSend, sender, element: element) {
                case .suspended: outcome = "suspended"
                case .resume(let sender, let delivery):
                    outcome = "resume \(sender)" + (delivery.map { ", deliver \($0.1) to \($0.0)" } ?? "")
                case .cancelled(let sender): outcome = "cancelled \(sender)"
                case .refuse(let sender): outcome = "refuse \(sender)"
                }
            case .cancelSender(let expect):
                expected = expect
                outcome = machine.cancelSender(lastSuspendedSend).map(String.init) ?? "none"
            case .receive(let expect):
                expected = expect
                switch machine.receive() {
                case .element(let element, let sender): outcome = element + (sender.map { " resuming \($0)" } ?? "")
                case .end: outcome = "end"
                case .suspend(let id, let sender):
                    lastSuspendedReceive = id
                    outcome = "suspend" + (sender.map { " resuming \($0)" } ?? "")
                }
            case .suspendReceiver(let receiver, let expect):
                expected = expect
                switch machine.suspendReceiver(lastSuspendedReceive, receiver) {
                case .suspended: outcome = "suspended"
                case .resume(let receiver, let element): outcome = "resume \(receiver) with \(element ?? "end")"
                case .cancelled(let receiver, let senders): outcome = "cancelled \(receiver) refusing \(senders)"
                }
            case .cancelReceiver(let expect):
                expected = expect
                let (receiver, senders) = machine.cancelReceiver(lastSuspendedReceive)
                outcome = "\(receiver.map(String.init) ?? "none") refusing \(senders)"
            case .finish(let expect):
                expected = expect
                outcome = machine.finish().map(String.init) ?? "none"
            case .inFlight(let count):
                expected = "\(count)"
                outcome = "\(machine.inFlight)"
            }
            #expect(outcome == expected, "\(script.name), step \(number): \(step)")
        }
        #expect(machine.peakInFlight <= script.capacity)
    }

    @Test func waitsAndThePeakAreCounted() {
        var machine = Machine(capacity: 2)
        _ = machine.send("a", counted: true)
        _ = machine.send("b", counted: true)
        guard case .suspend = machine.send("c", counted: true) else {
            Issue.record("a third send must wait")
            return
        }
        #expect(machine.waitCount == 1)
        #expect(machine.peakInFlight == 2)
        #expect(machine.queuedCount == 2)
    }

    @Test func aCancellationAfterTheSendCompletedChangesNothing() {
        var machine = Machine(capacity: 1)
        _ = machine.send("a", counted: true)
        guard case .suspend(let id) = machine.send("b", counted: true) else {
            Issue.record("the second send must wait")
            return
        }
        #expect(machine.suspendSender(id, 1, element: "b").isSuspended)
        guard case .element("a", resuming: nil) = machine.receive() else {
            Issue.record("a must come first, its credit still held")
            return
        }
        guard case .element("b", resuming: 1?) = machine.receive() else {
            Issue.record("the second receive must hand a's credit to sender 1 and deliver b")
            return
        }
        // The sender's task is cancelled after it was resumed: nothing changes, b was delivered.
        #expect(machine.cancelSender(id) == nil)
        #expect(machine.inFlight == 1)
        guard case .suspend = machine.receive() else {
            Issue.record("nothing more is queued")
            return
        }
        #expect(machine.inFlight == 0)
    }
}

extension BoundedChannelStateMachine.SuspendSenderAction {
    fileprivate var isSuspended: Bool {
        if case .suspended = self { true } else { false }
    }
}
