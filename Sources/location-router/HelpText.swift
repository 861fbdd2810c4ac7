import LocationRouter

/// The help pages, in swift-argument-parser's layout.
enum HelpText {
    static let overview = """
        OVERVIEW: Load-test geofence evaluation: simulated devices, region monitors, event dispatch.

        USAGE: location-router [run] [<options>]
               location-router check <file> ... [--json]

        SUBCOMMANDS:
          run (default)           Run the simulation described by ./config.json and the options.
          check                   Validate region, sample and config files and say what they hold.

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
                                  detected from the first line).
          --regions <path>        Regions from a GeoJSON FeatureCollection (required for stdin sources).
          --devices <n>           Random-walk devices.
          --duration <seconds>    Simulated seconds of random walk.
          --profile <name>        Monitoring profile: exact.
          --initial-trigger <t>   What a region registered while inside reports: none | state | enter.
          --events <path|->       Write events as NDJSON to a file, or '-' for standard output.
          --no-events             Count events without writing them.
          --report <path>         Write the JSON report to a file.
          --seed <n>              Seed of the random walk (same seed, same events).
          --pace <pace>           max | realtime | a factor of simulated seconds per second.
          --shards <n>            Monitor shards (default: one per active core).
          --on-bad-input <p>      skip (count and report bad lines; default) | fail (exit 65).
          --quiet                 Print neither progress nor the summary.
          -h, --help              Show help information.

        EXIT STATUS:
          0 success, 64 usage error, 65 invalid input, 66 input missing or unreadable,
          74 output error.

        """

    static let check = """
        OVERVIEW: Validate files and say what they hold, or what is wrong with them and where.

        USAGE: location-router check <file> ... [--json]

        ARGUMENTS:
          <file>                  GeoJSON regions (.geojson, or .json holding a FeatureCollection),
                                  samples (.ndjson, .jsonl, .csv) or a config file (.json).

        OPTIONS:
          --json                  One JSON object per file and line, for scripts.
          -h, --help              Show help information.

        EXIT STATUS:
          0 every file is valid, 64 usage error, 65 a file is invalid, 66 a file is missing or unreadable.

        """

    static var version: String { LocationRouterVersion.current + "\n" }
}
