import Foundation
import GeofenceKit
import LocationRouter

/// A geofence service under test, driven while the run goes on (`--target URL --listen HOST:PORT`).
struct TargetSession {
    let listener: HTTPListener
    let collector: TargetEventCollector
    let sending: Task<TargetSendLog, Never>
    let poster: HTTPPoster
    let grace: Double
    let truth: [ScoredEvent]
    let tolerance: Double
    let stop: StopSignal

    /// Waits for the samples to be sent and `grace` seconds more for late events (less when the run is
    /// interrupted), stops listening, and scores what arrived.
    func finish() async -> TargetStatistics {
        let log = await sending.value
        poster.invalidate()
        let deadline = MonotonicClock.now() + UInt64(grace * 1e9)
        while !stop.isRequested {
            // Read the clock once: between two reads the deadline may pass, and `deadline - now` would underflow.
            let now = MonotonicClock.now()
            guard now < deadline else { break }
            try? await Task.sleep(nanoseconds: min(50_000_000, deadline - now))
        }
        listener.stop()
        return collector.statistics(truth: truth, log: log, tolerance: tolerance)
    }
}

extension RunCommand {
    /// Starts listening for the service's events and sending it the run's samples, when `--target` is given.
    func startTarget(_ configuration: SimulationConfiguration, truth: TruthPlan?, stop: StopSignal) throws(CommandError)
        -> TargetSession?
    {
        let options = scenario.truth
        guard let target = options.target, let url = URL(string: target), let listen = options.listen,
            let address = ListenAddress(listen), let truth
        else { return nil }
        var source = configuration
        var descriptor: Int32 = -1
        defer { if descriptor >= 0 { close(descriptor) } }
        if let replay = truth.replayPath, case .samples(var input) = configuration.source {
            descriptor = open(replay, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw CommandError(.outputFailed, "\(replay): cannot be read back to send the samples") }
            input.descriptor = descriptor
            input.onRejection = nil
            source.source = .samples(input)
        }
        let samples: [TargetSample]
        do {
            samples = try TargetSample.collect(source)
        } catch {
            throw Self.commandError(for: error)
        }
        let collector = TargetEventCollector()
        let listener: HTTPListener
        do {
            listener = try HTTPListener(address: address) { collector.handle(method: $0, path: $1, body: $2) }
        } catch {
            throw CommandError(.outputFailed, error.description)
        }
        let poster = HTTPPoster(url: url, connections: TargetSession.lanes)
        let driver = TargetDriver(poster: poster, batchSize: options.targetBatch, lanes: TargetSession.lanes, pace: scenario.pace, stop: stop)
        let sending = Task { await driver.send(samples) }
        return TargetSession(
            listener: listener, collector: collector, sending: sending, poster: poster, grace: options.listenGrace,
            truth: truth.events, tolerance: options.tolerance, stop: stop)
    }

    /// The target's lines of the summary.
    static func targetSummary(_ target: TargetStatistics) -> String {
        let latency = target.latencyMs.map { "\($0.name) \($0.value.map { String(format: "%.1f", $0) } ?? "–")" }
        var text = "Target: \(target.requests) requests (\(target.failedRequests) failed), \(target.samplesSent) samples sent, "
        text += "\(target.eventsReceived) events received, \(target.badRequests) bad bodies\n"
        text += "target latency ms (sample sent → event received): " + latency.joined(separator: " · ") + "\n"
        return text + target.score.text
    }
}

extension TargetSession {
    /// Requests in flight at most (each lane carries its own devices, one request at a time).
    static let lanes = 4
}
