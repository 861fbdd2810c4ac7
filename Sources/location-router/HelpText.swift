import LocationRouter

/// The help pages, in swift-argument-parser's layout.
enum HelpText {
    static let overview = """
        OVERVIEW: Load-test geofence evaluation: simulated devices, region monitors, event dispatch.

        USAGE: location-router [run] [<options>]
               location-router check <file> ... [--json]
               location-router score --truth <path> --events <path> [<options>]
               location-router serve --regions <path> --listen <host:port> --webhook <url>
               location-router report <report.json> --html <path>
               location-router merge <report> ... [<options>]

        SUBCOMMANDS:
          run (default)           Run the simulation described by ./config.json and the options.
          check                   Validate GPX, region, sample and config files and say what they hold.
          score                   Score events (ours or any system's) against the truth of the input.
          serve                   A reference geofence service for trying 'run --target'.
          report                  Render a saved JSON report as a self-contained HTML page.
          merge                   Combine the JSON reports of a partitioned run (--partition) into one.

        OPTIONS:
          -h, --help              Show help information (also: location-router help <subcommand>).
          --version               Show the version.

          See 'location-router run --help' and 'location-router check --help' for details.

        """

    static let run = """
        OVERVIEW: Run a simulation: source → region monitors → notification dispatcher.

        USAGE: location-router run [<options>]

        OPTIONS:
          --config <path>         The scenario file (default: ./config.json when it exists, else the
                                  same defaults built in).
          --source <kind>         random-walk | stdin | stdin:ndjson | stdin:csv (stdin: the format is
                                  detected from the first line) | gpx:PATH[,PATH...] (play GPX files)
                                  | route:LAT,LON;LAT,LON[;...] (a route at --speed).
          --regions <path>        Regions from a GeoJSON FeatureCollection (required for stdin sources;
                                  otherwise regions are generated around each device). Polygons across
                                  ±180° are split there; a ring around a pole encloses it (warnings say so).
          --devices <n>           Simulated devices (random walk, GPX and route playback).
          --duration <seconds>    Simulated seconds of random walk.
          --interval <seconds>    Seconds between two samples of a device.
          --speed <m/s>           Playback speed of routes and of GPX legs without times.
          --sample-distance <m>   Sample routes every <m> metres instead of every interval.
          --stagger <seconds>     The k-th device playing a file starts k × <seconds> later.
          --time-jitter <s>       Seeded extra start delay per playing device, up to <s> seconds.
          --position-jitter <m>   Seeded constant displacement per playing device, up to <m> metres.
          --distance-filter <m>   Report a sample only after moving <m> metres (Core Location's).
          --significant-change    Coarse updates: after ≥ 500 m, at most one per 5 minutes.
          --accuracy <m>          Seeded position noise with a 68 % radius of <m> metres.
          --profile <name>        Monitoring profile: exact | ios | android.
          --initial-trigger <t>   What a region registered while inside reports: none, or state, enter,
                                  dwell joined by commas (default: the profile's).
          --buffer <m>            Hysteresis: metres past the boundary before a transition counts.
          --confirmation <s>      Hysteresis: seconds the device must stay past the buffer.
          --loitering-delay <s>   Seconds inside before a dwell event.
          --authorization <s>     Shares of devices per status: always=0.8,whenInUse=0.15,denied=0.05.
          --compare-profiles <l>  Run the same input through exact and these profiles (e.g. ios,android)
                                  and report the events each one missed, added or delayed.
          --events <path|->       Write events as NDJSON to a file, or '-' for standard output.
          --no-events             Count events without writing them.
          --webhook <url>         Also POST events to an http(s) URL, in JSON-array batches, with retries;
                                  each event ends delivered (2xx) or in the dead-letter file.
          --dead-letter <path>    Where undeliverable webhook batches go (default:
                                  webhook-dead-letter.ndjson).
          --report <path|->       Write the JSON report to a file, or '-' for standard output. A regular
                                  file is replaced atomically; a device or FIFO is written in place.
          --no-report             Write no JSON report (overrides config.json's "report").
          --html <path>           Also write the report as one self-contained HTML page: summary and
                                  thresholds, a map of regions and sampled tracks, time series, the
                                  latency histogram, profiles side by side (no script, nothing fetched).
          --state <path>          Save device state at the end; restore it at the start when it exists.
          --snapshot-interval <s> Also save the state every <s> wall-clock seconds.
          --drain-timeout <s>     After SIGINT/SIGTERM/SIGHUP, seconds the drain may take before a partial
                                  report is written and the run exits (default 30).
          --seed <n>              Seed of the random walk (same seed, same events).
          --pace <pace>           max | realtime | a factor of simulated seconds per second.
          --shards <n>            Monitor shards (default: one per active core).
          --on-bad-input <p>      skip (count and report bad lines; default) | fail (exit 65).
          --threshold <expr>      Pass/fail condition on the report, METRIC OP NUMBER (repeatable; replaces
                                  the config's thresholds), e.g. 'latencyMs.p99 < 5', 'dropped == 0'.
          --ground-truth <path|-> Write the exact truth of the input as NDJSON events: every boundary
                                  crossing at its interpolated time, pass-throughs between two samples
                                  included.
          --score                 Score the run's events against that truth (recall, precision, missed,
                                  spurious, latency): the report's 'score' object, thresholds 'score.*'.
          --score-tolerance <s>   How late an event may be and still match its truth event (default 600).
          --target <url>          Drive a geofence service under test: POST the samples to <url> as NDJSON
                                  batches (in order per device, paced by --pace) and score the events it
                                  posts back to --listen: the report's 'target' object.
          --listen <host:port>    Where the service posts its events: POST /events, NDJSON or a JSON array.
          --target-batch <n>      Samples per request (default 500; also sent every 100 ms).
          --listen-grace <s>      Seconds to wait for late events after the input ends (default 10).
          --quiet                 Print neither progress nor the summary (failed thresholds still are).
          --partition <I/N>       Simulate only partition I of N (0 ≤ I < N ≤ 65536), for running one test
                                  as N processes: generated device d is partition d mod N's; a stream's
                                  device is partition FNV-1a-64(UTF-8 id) mod N's. Same config and seed
                                  everywhere; combine the reports with 'location-router merge'.
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 64 usage error, 65 invalid input, 66 input missing or unreadable,
          74 output error, 99 a threshold was not met; after a signal, 130 (SIGINT, Ctrl-C), 143 (SIGTERM)
          or 129 (SIGHUP): the run drains and writes its report, marked interrupted; a second signal, or a
          drain past --drain-timeout, writes a partial report and exits at once.

        """

    static let check = """
        OVERVIEW: Validate files and say what they hold, or what is wrong with them and where.

        USAGE: location-router check <file> ... [--json]

        ARGUMENTS:
          <file>                  GPX (.gpx, streamed: any size), GeoJSON regions (.geojson, or .json
                                  holding a FeatureCollection), samples (.ndjson, .jsonl, .csv) or a
                                  config file (.json). For regions, warnings name the polygons split at
                                  the antimeridian or closed over a pole; an ambiguous ring is an error.

        OPTIONS:
          --json                  One JSON object per file and line, for scripts.
          -h, --help              Show help information.

        EXIT STATUS:
          0 every file is valid, 64 usage error, 65 a file is invalid, 66 a file is missing or unreadable.

        """

    static let merge = """
        OVERVIEW: Combine the JSON reports of the partitions of one run (run --partition I/N) into the
        report of the whole run: counts add up, latency percentiles come from the merged histogram
        buckets, throughput is total updates over the union of the partitions' wall-clock windows.

        USAGE: location-router merge <report> ... [<options>]

        ARGUMENTS:
          <report>                A JSON report written by 'run --report' (one per partition).

        OPTIONS:
          --report <path|->       Write the merged JSON report to a file, or '-' for standard output
                                  (default: merged-report.json).
          --html <path>           Also write the merged report as a self-contained HTML page.
          --no-report             Write no merged report.
          --threshold <expr>      Pass/fail condition on the merged report (repeatable), as for 'run'.
          --allow-missing         Merge even when some partitions' reports are absent (they are listed).
          --quiet                 Print no summary (failed thresholds still are).
          -h, --help              Show help information.

        Reports of different configurations, seeds, profiles, versions or partition counts are refused,
        as is a partition given twice; missing partitions are named.

        EXIT STATUS:
          0 success, 64 usage error, 65 a report is invalid or the reports do not belong together,
          66 a report is missing or unreadable, 74 output error, 99 a threshold was not met.

        """

    static var version: String { LocationRouterVersion.current + "\n" }
}

extension HelpText {
    static let report = """
        OVERVIEW: Render a saved JSON report (--report) as one self-contained HTML page.

        USAGE: location-router report <report.json> --html <path>

        ARGUMENTS:
          <report.json>           A report written by 'run --report' (with or without --compare-profiles).

        OPTIONS:
          --html <path>           Where the page goes (a regular file is replaced atomically; '-' for
                                  standard output). Inline CSS and SVG only: no script, font or image is
                                  fetched, so it reads offline and as an attachment.
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 64 usage error, 65 not a report, 66 input missing or unreadable, 74 output error.

        """
}
