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

    /// The page of `help <subcommand>`.
    static func page(for subcommand: String?) -> String {
        switch subcommand {
        case "check": check
        case "run": run
        case "score": score
        default: overview
        }
    }

    /// The usage line printed after a usage error.
    static func usage(of subcommand: String) -> String {
        switch subcommand {
        case "check": "check <file> ... [--json]"
        case "score": "score --truth <path> --events <path> [<options>]"
        default: "run [<options>]"
        }
    }
}
