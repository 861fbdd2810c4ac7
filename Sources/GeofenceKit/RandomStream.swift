/// Every purpose of a seeded random stream, in one place: a new stream takes an unused value here.
///
/// ``SplitMix64/init(seed:stream:purpose:)`` mixes the run's seed, a stream number (usually the device) and one of
/// these, so that each purpose of each device draws numbers of its own. The raw values are part of the output:
/// changing one changes what a seed produces (same seed, same run), so they never change and are never reused.
public enum RandomStream: UInt64, CaseIterable, Sendable {
    /// A random-walk device's start, speed and heading.
    case walkStart = 1
    /// A random-walk device's steps.
    case walkSteps = 2
    /// The regions generated around a device.
    case generatedRegions = 3
    /// `--accuracy`: a device's position noise.
    case positionNoise = 4
    /// `--time-jitter` and `--position-jitter` of a playing device.
    case playbackJitter = 5
    /// A device's authorization status.
    case authorization = 6
    /// The reference service's (`serve`) own draws.
    case referenceService = 11
    /// A generated shared catalog (`regions.catalog`): one stream for all its regions.
    case generatedCatalog = 12
    /// An event's delivery delay (`monitor.delivery`), keyed by its device and region, kind and decision time.
    case deliveryDelay = 13
    /// A random-walk device's stops (`source.stops`).
    case walkStops = 14
    /// A device's foreground/background schedule, drawn after its authorization.
    case appState = 106
}

extension SplitMix64 {
    /// A generator for one stream of a run: `seed` mixed with a stream number (usually a device) and its purpose.
    public init(seed: UInt64, stream: UInt64, purpose: RandomStream) {
        self.init(seed: seed, stream: stream, purpose: purpose.rawValue)
    }
}
