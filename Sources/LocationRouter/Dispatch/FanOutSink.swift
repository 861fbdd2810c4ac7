/// Hands the same events to several sinks in turn (an NDJSON file and a webhook, say).
///
/// Each write completes on every sink before the next begins, so the slowest sink sets the pace, and nothing is
/// queued behind it. `close()` closes every sink, even when one of them fails, and rethrows the first error.
public struct FanOutSink: EventSink {
    public let sinks: [any EventSink]

    public init(_ sinks: [any EventSink]) {
        self.sinks = sinks
    }

    /// Runs every sink's background work at once, until each is closed and drained.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            for sink in sinks { group.addTask { await sink.run() } }
        }
    }

    public func write(_ bytes: [UInt8]) async throws {
        for sink in sinks { try await sink.write(bytes) }
    }

    /// The first sink's checkpoint that has a file, after every sink made its bytes durable.
    public func checkpoint() async throws -> Int64? {
        var offset: Int64?
        for sink in sinks {
            let own = try await sink.checkpoint()
            offset = offset ?? own
        }
        return offset
    }

    public func close() async throws {
        var firstError: (any Error)?
        for sink in sinks {
            do { try await sink.close() } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }
}
