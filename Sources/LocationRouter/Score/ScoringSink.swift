import GeofenceKit

/// An ``EventSink`` that keeps the run's `enter` and `exit` events for scoring and passes every byte on to the
/// sink it wraps (if any): how `run --score` sees its own events, whatever the profile.
public actor ScoringSink: EventSink {
    private let next: (any EventSink)?
    private var events: [ScoredEvent] = []
    private var ignored = 0

    public init(forwardingTo next: (any EventSink)?) {
        self.next = next
    }

    public func write(_ bytes: [UInt8]) async throws {
        // The dispatcher writes whole lines in the encoder's format: they always parse.
        if let contents = try? EventFileReader.read(bytes) {
            events += contents.events
            ignored += contents.ignored
        }
        try await next?.write(bytes)
    }

    /// Runs the wrapped sink's background work.
    public nonisolated func run() async {
        await next?.run()
    }

    public func close() async throws {
        try await next?.close()
    }

    /// The events kept so far scored against `truth`.
    public func score(against truth: [ScoredEvent], tolerance: Double) -> EventScore {
        EventMatcher(tolerance: tolerance).score(truth: truth, events: events, ignored: ignored)
    }
}
