import LocationRouter

/// Warnings about options of another source than the run's, which it would otherwise ignore silently: the random
/// walk's `--duration` or `--stops` beside samples on standard input or a GPX file, playback's `--speed` or
/// `--stagger` beside the random walk. (A generated catalog's own warning is ``ignoredCatalogWarning``.)
extension Scenario {
    var sourceOptionWarnings: [String] {
        let defaults = Scenario()
        let sourceName: String
        // (option, config key, whether it differs from the built-in default) of the options this source ignores.
        var ignored: [(option: String, key: String, given: Bool)] = []
        let walkOnly = [
            ("--duration", "source.duration", walk.duration != defaults.walk.duration),
            ("--stops", "source.stops", walk.stops != defaults.walk.stops),
        ]
        let playbackOnly = [
            ("--speed", "source.playback.speed", playbackSpeed != defaults.playbackSpeed),
            ("--sample-distance", "source.playback.sampleDistance", sampleDistance != defaults.sampleDistance),
            ("--stagger", "source.playback.stagger", stagger != defaults.stagger),
            ("--time-jitter", "source.playback.timeJitter", timeJitter != defaults.timeJitter),
            ("--position-jitter", "source.playback.positionJitter", positionJitter != defaults.positionJitter),
        ]
        switch source {
        case .randomWalk:
            sourceName = "the random walk"
            ignored = playbackOnly
        case .gpx, .route:
            sourceName = "GPX and route playback"
            ignored = walkOnly
        case .stdin:
            sourceName = "samples on standard input"
            ignored = walkOnly + playbackOnly + [
                ("--devices", "source.devices", walk.devices != defaults.walk.devices),
                ("--interval", "source.interval", walk.interval != defaults.walk.interval),
            ]
        }
        return ignored.filter(\.given).map { option, key, _ in
            "\(option) (\(key)) is ignored: \(sourceName) does not use it"
        }
    }
}
