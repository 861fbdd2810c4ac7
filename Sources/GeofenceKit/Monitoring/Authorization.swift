import Foundation

/// A user's answer to the location permission prompt, as Core Location and Android know it.
public enum AuthorizationStatus: String, Sendable, CaseIterable {
    /// "Always": region monitoring works in the background.
    case always
    /// "When in use": events reach the app only while it is in the foreground.
    case whenInUse
    /// "Denied": every registration fails.
    case denied
}

/// The seeded share of devices per authorization status, and how whenInUse apps are used.
///
/// Device `d`'s status is a function of the seed and `d`, so it is the same in every shard and every run of a
/// seed. A whenInUse device alternates foreground sessions and background periods of exponentially distributed
/// lengths (means `foregroundSeconds` and `backgroundSeconds`), drawn from its own generator.
public struct AuthorizationMix: Sendable, Equatable {
    public var always: Double
    public var whenInUse: Double
    public var denied: Double
    public var foregroundSeconds: Double
    public var backgroundSeconds: Double

    public init(
        always: Double = 1, whenInUse: Double = 0, denied: Double = 0, foregroundSeconds: Double = 300,
        backgroundSeconds: Double = 1_800
    ) {
        self.always = always
        self.whenInUse = whenInUse
        self.denied = denied
        self.foregroundSeconds = foregroundSeconds
        self.backgroundSeconds = backgroundSeconds
    }

    /// Whether any device is not `always`.
    public var isActive: Bool { whenInUse > 0 || denied > 0 }

    /// The status of device `d`.
    public func status(ofDevice device: Int32, seed: UInt64) -> AuthorizationStatus {
        guard isActive else { return .always }
        var rng = SplitMix64(seed: seed, stream: UInt64(device), purpose: .authorization)
        let total = always + whenInUse + denied
        let draw = rng.unit() * total
        if draw < denied { return .denied }
        if draw < denied + whenInUse { return .whenInUse }
        return .always
    }
}

/// The foreground sessions of one whenInUse device: asked in non-decreasing time order.
struct ForegroundSchedule: Sendable {
    private var rng: SplitMix64
    private var inForeground: Bool
    private var nextSwitch: Int64
    private let foreground: Double
    private let background: Double

    init(mix: AuthorizationMix, seed: UInt64, device: Int32, start: Int64) {
        rng = SplitMix64(seed: seed, stream: UInt64(device), purpose: .appState)
        foreground = max(mix.foregroundSeconds, 1e-3)
        background = max(mix.backgroundSeconds, 1e-3)
        // Start in the foreground with the long-run share of time spent there.
        inForeground = rng.unit() < foreground / (foreground + background)
        nextSwitch = start
        nextSwitch = start + duration(inForeground ? foreground : background)
    }

    /// Whether the app is in the foreground at `time`.
    mutating func isForeground(at time: Int64) -> Bool {
        while time >= nextSwitch {
            inForeground.toggle()
            nextSwitch += max(1, duration(inForeground ? foreground : background))
        }
        return inForeground
    }

    /// An exponentially distributed duration in microseconds.
    private mutating func duration(_ mean: Double) -> Int64 {
        Int64(-mean * log(max(rng.unit(), 0x1p-53)) * 1e6)
    }
}
