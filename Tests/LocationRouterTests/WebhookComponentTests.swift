import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

/// The webhook sink's pure parts: batching, the JSON array body, response classification, `Retry-After`
/// and the backoff.
@Suite struct WebhookComponentTests {
    @Test func linesAreCutIntoBatchesAndAPartialBatchWaits() {
        var builder = WebhookBatchBuilder(batchSize: 2)
        let full = builder.append(Array("{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n".utf8))
        #expect(full.map(\.events) == [2])
        #expect(full.first.map { String(decoding: $0.lines, as: UTF8.self) } == "{\"a\":1}\n{\"a\":2}\n")
        #expect(builder.pendingEvents == 1)
        let partial = builder.cutPartial()
        #expect(partial?.events == 1)
        #expect(builder.cutPartial() == nil)
    }

    @Test func aLineSplitAcrossWritesIsJoinedAndBlankLinesAreSkipped() {
        var builder = WebhookBatchBuilder(batchSize: 10)
        #expect(builder.append(Array("{\"a\":1}\n\n{\"a\"".utf8)).isEmpty)
        #expect(builder.append(Array(":2}\n{\"a\":3}".utf8)).isEmpty)
        #expect(builder.pendingEvents == 2)
        let rest = builder.finish()
        #expect(rest.map(\.events) == [3], "the unterminated last line counts at the end")
        #expect(rest.first.map { String(decoding: $0.lines, as: UTF8.self) } == "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n")
    }

    @Test func batchIdentifiersAreUnique() {
        var builder = WebhookBatchBuilder(batchSize: 1)
        let batches = builder.append(Array("{}\n{}\n{}\n".utf8)) + builder.finish()
        #expect(Set(batches.map(\.id)).count == 3)
    }

    @Test func theBodyIsTheLinesAsAJSONArray() throws {
        let lines = #"{"device":"a","lat":1.5}"# + "\n" + #"{"device":"b, c","reason":"x\ny"}"# + "\n"
        let batch = WebhookBatch(id: 1, events: 2, lines: Array(lines.utf8))
        #expect(String(decoding: batch.body, as: UTF8.self) == #"[{"device":"a","lat":1.5},{"device":"b, c","reason":"x\ny"}]"#)
        let parsed = try JSONSerialization.jsonObject(with: batch.body) as? [[String: Any]]
        #expect(parsed?.count == 2)
        #expect(WebhookBatch.jsonArray(of: []) == Data("[]".utf8))
    }

    @Test func answersAreClassifiedAsTheInterfaceSays() {
        #expect(WebhookAttemptOutcome.classify(status: 200, retryAfter: nil) == .delivered)
        #expect(WebhookAttemptOutcome.classify(status: 204, retryAfter: nil) == .delivered)
        #expect(WebhookAttemptOutcome.classify(status: 500, retryAfter: "7") == .retryable(reason: "HTTP 500", retryAfter: nil))
        #expect(WebhookAttemptOutcome.classify(status: 502, retryAfter: nil) == .retryable(reason: "HTTP 502", retryAfter: nil))
        #expect(WebhookAttemptOutcome.classify(status: 503, retryAfter: "7") == .retryable(reason: "HTTP 503", retryAfter: 7))
        #expect(WebhookAttemptOutcome.classify(status: 429, retryAfter: "0") == .retryable(reason: "HTTP 429", retryAfter: 0))
        #expect(WebhookAttemptOutcome.classify(status: 429, retryAfter: "soon") == .retryable(reason: "HTTP 429", retryAfter: nil))
        #expect(WebhookAttemptOutcome.classify(status: 400, retryAfter: nil) == .rejected(reason: "HTTP 400"))
        #expect(WebhookAttemptOutcome.classify(status: 404, retryAfter: "1") == .rejected(reason: "HTTP 404"))
        #expect(WebhookAttemptOutcome.classify(status: 301, retryAfter: nil) == .rejected(reason: "HTTP 301"))
    }

    @Test func retryAfterIsReadAsSecondsOrAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_795_248_000)  // Sat, 21 Nov 2026 08:00:00 GMT
        #expect(RetryAfter.seconds(from: "120", now: now) == 120)
        #expect(RetryAfter.seconds(from: " 0 ", now: now) == 0)
        #expect(RetryAfter.seconds(from: "Sat, 21 Nov 2026 08:00:30 GMT", now: now) == 30)
        #expect(RetryAfter.seconds(from: "Saturday, 21-Nov-26 08:01:00 GMT", now: now) == 60)
        #expect(RetryAfter.seconds(from: "Sat Nov 21 08:00:05 2026", now: now) == 5)
        #expect(RetryAfter.seconds(from: "Sat, 21 Nov 2026 07:00:00 GMT", now: now) == 0, "a past date means now")
        #expect(RetryAfter.seconds(from: "-5", now: now) == nil)
        #expect(RetryAfter.seconds(from: "1.5", now: now) == nil)
        #expect(RetryAfter.seconds(from: "", now: now) == nil)
        #expect(RetryAfter.seconds(from: "tomorrow", now: now) == nil)
    }

    @Test func theBackoffGrowsToItsMaximumWithFullJitter() {
        let backoff = WebhookBackoff(initial: 0.1, factor: 2, maximum: 5, seed: 9)
        #expect((1...8).map { backoff.bound(afterAttempt: $0) } == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5, 5])
        #expect(backoff.bound(afterAttempt: Int.max) == 5)
        var first = SplitMix64(seed: backoff.seed)
        var second = SplitMix64(seed: backoff.seed)
        let draws = (1...200).map { backoff.delay(afterAttempt: $0 % 9 + 1, using: &first) }
        #expect(draws == (1...200).map { backoff.delay(afterAttempt: $0 % 9 + 1, using: &second) }, "seeded")
        for (i, draw) in draws.enumerated() {
            #expect(draw >= 0 && draw <= backoff.bound(afterAttempt: (i + 1) % 9 + 1))
        }
        #expect(Set(draws).count > 150, "jittered, not fixed")
    }

    @Test func settingsOutOfRangeAreBroughtIntoRange() throws {
        var configuration = try WebhookConfiguration(url: "http://127.0.0.1:9/hook")
        configuration.batchSize = 0
        configuration.concurrency = -3
        configuration.maxAttempts = 0
        configuration.timeout = .nan
        configuration.linger = -1
        let normalized = configuration.normalized
        #expect(normalized.batchSize == 1 && normalized.concurrency == 1 && normalized.maxAttempts == 1)
        #expect(normalized.timeout == 10 && normalized.linger == 0)
        #expect(configuration.resolvedDeadLetterPath == WebhookConfiguration.defaultDeadLetterPath)
    }
}
