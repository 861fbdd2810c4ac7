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

    /// `run --help`: its OPTIONS are written from ``RunOption/all``, so every option is listed as it is read.
    static var run: String { runHead + RunOption.helpSection + "\n" + runTail }

    private static let runHead = """
        OVERVIEW: Run a simulation: source → region monitors → notification dispatcher.

        USAGE: location-router run [<options>]

        OPTIONS:

        """

    private static let runTail = """
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
                                  A shared catalog (regions without devices, or a config's
                                  regions.catalog) larger than the slot limit is a warning, unless the
                                  config chooses selection nearest; so is a smaller one that a device's
                                  own regions (those listing it) take past the limit.

        OPTIONS:
          --json                  One JSON object per file and line, for scripts.
          -h, --help              Show help information.

        EXIT STATUS:
          0 every file is valid, 64 usage error, 65 a file is invalid, 66 a file is missing or unreadable.

        """

    static let merge = """
        OVERVIEW: Combine the JSON reports of the partitions of one run (run --partition I/N) into the
        report of the whole run: counts add up, latency percentiles come from the merged histogram
        buckets, throughput is total updates over the union of the partitions' wall-clock windows;
        selection, coverage and delivery add up, their ratios computed again from the sums.

        USAGE: location-router merge <report> ... [<options>]

        ARGUMENTS:
          <report>                A JSON report written by 'run --report' (one per partition).

        OPTIONS:
          --report <path|->       Write the merged JSON report to a file, or '-' for standard output
                                  (default: merged-report.json).
          --html <path>           Also write the merged report as a self-contained HTML page.
          --no-report             Write no merged report (overrides --report).
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
