import Testing
@testable import LocationRouter

/// The one-time hand-over of an exchange's result: from the exchange's thread, or `.cancelled` shortly after a
/// cancellation when that thread cannot answer.
@Suite struct WebhookExchangeCompletionTests {
    @Test func aResultDeliveredBeforeTheTaskWaitsIsKept() async {
        let completion = ExchangeCompletion()
        completion.complete(.failed("early"))
        completion.complete(.failed("second"))
        let result = await withCheckedContinuation { completion.wait($0) }
        #expect(result == .failed("early"))
    }

    @Test func aCancellationDoesNotWaitForAThreadThatNeverAnswers() async {
        let completion = ExchangeCompletion()
        completion.cancelSoon()
        // Only a fallback much later completes it otherwise, so that a missing timer fails instead of hanging.
        let fallback = Task {
            try? await Task.sleep(nanoseconds: 60_000_000_000)
            completion.complete(.failed("the timer never fired"))
        }
        let result = await withCheckedContinuation { completion.wait($0) }
        fallback.cancel()
        #expect(result == .cancelled)
    }

    @Test func theThreadsResultWinsWhenItComesWithinTheGrace() async {
        let completion = ExchangeCompletion()
        let result = await withCheckedContinuation { continuation in
            completion.wait(continuation)
            completion.cancelSoon()
            completion.complete(.failed("the thread's answer"))
        }
        #expect(result == .failed("the thread's answer"))
    }
}
