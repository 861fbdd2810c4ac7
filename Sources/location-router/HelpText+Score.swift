/// The help pages of the truth and scoring commands, and how the pages are found.
extension HelpText {
    static let score = """
        OVERVIEW: Score events against the truth: recall, precision, missed, spurious, duplicates, latency.

        USAGE: location-router score --truth <path> --events <path> [--tolerance <s>] [--json]
                                     [--threshold <expr> ...]

        OPTIONS:
          --truth <path|->        The truth: NDJSON events (from 'run --ground-truth'); '-' reads stdin.
          --events <path|->       The events to score: NDJSON or one JSON array of objects with 'device',
                                  'region', 'event' and 'time' (ISO-8601 or Unix seconds), from any system.
          --tolerance <seconds>   How late an event may be and still match its truth event (default 600).
          --json                  One JSON object instead of the table.
          --threshold <expr>      Pass/fail condition, METRIC OP NUMBER (repeatable), e.g. 'recall > 0.99',
                                  'latencySeconds.p99 < 5', 'spurious == 0'.
          -h, --help              Show help information.

        MATCHING:
          An event matches a truth event of the same device, region and kind (enter, exit) that it is at
          or after (1 ms earlier still counts) and at most --tolerance later; per device, region and kind
          the earliest truth event takes the earliest unmatched event in its window. Other kinds (dwell,
          state, failed) are ignored.

        EXIT STATUS:
          0 success, 64 usage error, 65 invalid file, 66 file missing or unreadable,
          99 a threshold was not met.

        """

    static let serve = """
        OVERVIEW: A reference geofence service: takes samples over HTTP, posts its events to a webhook.

        USAGE: location-router serve --regions <path> --listen <host:port> --webhook <url> [<options>]

        OPTIONS:
          --regions <path>        Regions from a GeoJSON FeatureCollection.
          --listen <host:port>    Where samples arrive: POST NDJSON ('device', 'lat', 'lon', 'time',
                                  'accuracy'), answered 204 (400 when no line is a sample).
          --webhook <url>         Where events go: POST NDJSON events, as 'run --events' writes them.
          --profile <name>        Monitoring rules: exact (default) | ios | android.
          --drop <share>          Never send this seeded share of the events (0...1, default 0).
          --delay <seconds>       Hold events back this long before sending them (default 0).
          --delay-share <share>   The seeded share of events that --delay holds back (default 1).
          --seed <n>              Seed of the drops and delays (default 42).
          --lifetime <seconds>    Stop after this long (default: until Ctrl-C).
          -h, --help              Show help information.

        """

    /// The page of `help <subcommand>`.
    static func page(for subcommand: String?) -> String {
        switch subcommand {
        case "check": check
        case "run": run
        case "score": score
        case "serve": serve
        case "merge": merge
        default: overview
        }
    }

    /// The usage line printed after a usage error.
    static func usage(of subcommand: String) -> String {
        switch subcommand {
        case "check": "check <file> ... [--json]"
        case "score": "score --truth <path> --events <path> [<options>]"
        case "serve": "serve --regions <path> --listen <host:port> --webhook <url> [<options>]"
        case "merge": "merge <report> ... [<options>]"
        case "help": "help [<subcommand>]"
        default: "run [<options>]"
        }
    }
}
