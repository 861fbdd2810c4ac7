extension Simulation {
    /// Runs `stages` with `sink`'s background work (``EventSink/run()``) as a child task beside them, and returns
    /// once both have ended.
    ///
    /// The stages close the sink (the dispatcher does, whatever ends the run), which is what ends the sink's
    /// `run()`. A stage's error is held until then rather than cancelling the sink's work: a webhook still gets
    /// its grace period to deliver what it holds before the error is rethrown.
    static func running(_ sink: (any EventSink)?, stages: () async throws -> Void) async throws {
        guard let sink else { return try await stages() }
        let outcome: Result<Void, any Error> = await withTaskGroup(of: Void.self) { group in
            group.addTask { await sink.run() }
            let outcome: Result<Void, any Error>
            do {
                try await stages()
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            await group.waitForAll()
            return outcome
        }
        try outcome.get()
    }
}
