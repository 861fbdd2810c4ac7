import LocationRouter
import Testing
@testable import location_router

/// What a run whose output failed says on standard error: the failure, then what it cost.
@Suite struct OutputFailureTests {
    @Test func aFailedDeadLetterFileCountsTheWebhookEventsItLostNotDroppedOnes() async throws {
        var report = try await Simulation(
            configuration: SimulationConfiguration(source: .randomWalk(RandomWalkConfiguration(devices: 2, duration: 5))),
            sink: nil
        ).run()
        #expect(RunCommand.outputFailure(of: report) == nil)

        // The dead-letter file failed: the sink wrote everything it was given, the webhook lost 90 events.
        report.sinkFailure = "cannot write the dead-letter file dl.ndjson: No space left on device"
        var webhook = WebhookStatistics()
        webhook.lost = 90
        report.webhook = webhook
        #expect(
            RunCommand.outputFailure(of: report)
                == "cannot write the dead-letter file dl.ndjson: No space left on device; 90 events were neither "
                + "delivered nor dead-lettered (the report's webhook.lost)")

        // An events file that failed: the events it did not write are dropped.
        report.webhook = nil
        report.sinkFailure = "cannot write events.ndjson: No space left on device"
        report.dropped = 7
        #expect(
            RunCommand.outputFailure(of: report)
                == "cannot write events.ndjson: No space left on device; 7 events were not written (the report counts "
                + "them as dropped)")
    }
}
