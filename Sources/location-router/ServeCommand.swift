import Foundation
import GeofenceKit
import LocationRouter

/// `location-router serve`: the reference geofence service, to try the load-test loop and to test scorers.
struct ServeCommand {
    let console: Console
    let regionsPath: String
    let address: ListenAddress
    let webhook: URL
    let profile: MonitoringProfile
    let drop: Double
    let delay: Double
    let delayShare: Double
    let seed: UInt64
    let lifetime: Double?

    init(arguments: [String], console: Console) throws(CommandError) {
        self.console = console
        var arguments = Arguments(arguments)
        guard let regions = try arguments.option("--regions") else { throw .usage("Missing expected option '--regions <path>'") }
        guard let listen = try arguments.option("--listen") else { throw .usage("Missing expected option '--listen <host:port>'") }
        guard let address = ListenAddress(listen) else {
            throw .usage("The value '\(listen)' is invalid for '--listen <host:port>' (such as 127.0.0.1:8080)")
        }
        guard let hook = try arguments.option("--webhook") else { throw .usage("Missing expected option '--webhook <url>'") }
        guard let url = URL(string: hook), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw .usage("The value '\(hook)' is invalid for '--webhook <url>' (an http(s) URL)")
        }
        if let unavailable = HTTPPoster.unavailable(for: url) {
            throw .usage("The value '\(hook)' is invalid for '--webhook <url>': \(unavailable)")
        }
        regionsPath = regions
        self.address = address
        webhook = url
        if let name = try arguments.option("--profile") {
            guard let value = MonitoringProfile(rawValue: name) else {
                throw .usage("The value '\(name)' is invalid for '--profile <name>' (\(Scenario.profiles.joined(separator: ", ")))")
            }
            profile = value
        } else {
            profile = .exact
        }
        drop = try arguments.number("--drop", "share", in: 0...1) ?? 0
        delay = try arguments.number("--delay", "seconds", in: 0...3_600) ?? 0
        delayShare = try arguments.number("--delay-share", "share", in: 0...1) ?? 1
        lifetime = try arguments.number("--lifetime", "seconds", in: 0...31_622_400)
        if let text = try arguments.option("--seed") {
            guard let value = UInt64(text) else { throw .usage("The value '\(text)' is invalid for '--seed <n>' (a whole number ≥ 0)") }
            seed = value
        } else {
            seed = 42
        }
        let extra = try arguments.remaining()
        guard extra.isEmpty else { throw .usage("Unexpected argument '\(extra[0])'") }
    }

    func run() async throws(CommandError) -> ExitCode {
        var warnings: [InputError] = []
        let catalog = try Files.regionCatalog(regionsPath, warnings: &warnings)
        Files.printRegionWarnings(warnings, of: regionsPath, to: console)
        let service = ReferenceService(
            catalog: catalog, settings: profile.settings, webhook: webhook, drop: drop, delay: delay, delayShare: delayShare,
            seed: seed)
        let listener: HTTPListener
        do {
            listener = try HTTPListener(address: address) { service.handle(method: $0, path: $1, body: $2) }
        } catch {
            throw CommandError(.outputFailed, error.description)
        }
        let stop = StopSignal()
        let interrupts = console.handlesSignals ? InterruptHandler(stop: stop, console: console) { _ in } : nil
        defer { interrupts?.cancel() }
        console.err("Serving \(catalog.regions.count) regions (profile \(profile.rawValue)) on http://\(listener.address): POST NDJSON samples; events go to \(webhook.absoluteString)\n")
        let posting = Task { await service.run() }
        let started = MonotonicClock.now()
        while !stop.isRequested {
            if let lifetime, Double(MonotonicClock.now() - started) / 1e9 >= lifetime { break }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        listener.stop()
        service.stop()
        await posting.value
        interrupts?.drainFinished()
        let s = service.statistics
        console.err("Served \(s.requests) requests, \(s.samples) samples (\(s.badLines) bad lines): \(s.events) events, \(s.dropped) dropped on purpose, \(s.delayed) delayed, \(s.delivered) delivered, \(s.failedPosts) failed posts\n")
        return .success
    }
}
