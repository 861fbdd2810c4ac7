import Foundation
import GeofenceKit

extension RunReport {
    /// The report of a finished run, from what each stage counted.
    init(
        source: SourceSummary, shards: [ShardSummary], dispatch: DispatchSummary, channels: [ChannelStatistics], regions: Int,
        wallSeconds: Double, configuration: SimulationConfiguration, interrupted: Bool
    ) {
        var rejected = Dictionary(uniqueKeysWithValues: source.rejected.map { ($0.key.rawValue, $0.value) })
        let outOfOrder = shards.reduce(0) { $0 + $1.outOfOrder }
        if outOfOrder > 0 { rejected[SampleRejection.outOfOrder.rawValue, default: 0] += outOfOrder }
        let emitted = shards.reduce(0) { $0 + $1.events }
        self.init(
            devices: shards.reduce(0) { $0 + $1.devices },
            regions: regions,
            monitoredRegions: shards.reduce(0) { $0 + $1.monitoredRegions },
            samplesRead: source.read,
            samples: source.samples,
            filtered: source.filtered,
            updates: shards.reduce(0) { $0 + $1.evaluated },
            wallSeconds: wallSeconds,
            simulatedSeconds: source.lastTime >= source.firstTime ? Double(source.lastTime - source.firstTime) / 1e6 : 0,
            events: Dictionary(
                uniqueKeysWithValues: EventKind.allCases.map { ($0.description, dispatch.countsByKind[$0.rawValue]) }),
            failures: Dictionary(
                uniqueKeysWithValues: FailureReason.allCases.map { ($0.description, dispatch.failuresByReason[$0.rawValue]) }),
            suppressed: ["background": shards.reduce(0) { $0 + $1.suppressedInBackground }],
            eventsEmitted: emitted,
            notificationsDelivered: dispatch.delivered,
            dropped: emitted - dispatch.delivered,
            rejected: rejected,
            inputErrors: source.inputErrors,
            latency: dispatch.latency,
            peakResidentBytes: ProcessResources.peakResidentBytes(),
            shards: shards.count,
            profile: configuration.profile,
            seed: configuration.seed,
            backPressureWaits: channels.reduce(0) { $0 + $1.waitCount },
            peakBatchesInFlight: channels.reduce(0) { $0 + $1.peakInFlight },
            batchCapacity: channels.reduce(0) { $0 + $1.capacity },
            version: LocationRouterVersion.current,
            webhook: nil,
            interrupted: interrupted)
        origin.partition = configuration.partition
        origin.wallEnd = Date().timeIntervalSince1970
        origin.wallStart = origin.wallEnd - wallSeconds
        if source.lastTime >= source.firstTime {
            origin.firstSampleTime = source.firstTime
            origin.lastSampleTime = source.lastTime
        }
        origin.regionsShared = configuration.regions != nil
        var delivery = DeliveryStatistics()
        for shard in shards { delivery.merge(shard.delivery) }
        if delivery.delayed > 0 { self.delivery = delivery }
    }
}
