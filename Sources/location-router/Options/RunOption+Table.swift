import GeofenceFormats
import GeofenceKit
import LocationRouter

extension RunOption {
    /// Every option of `run`, in the help page's order. The command line applies them in this order (so
    /// `--no-events` wins over `--events`), and config.json reads its keys in this order.
    static let all: [RunOption] = [configFile] + input + monitoring + platform + catalog + outputs + execution

    /// `--config`: read by ``RunCommand`` before every other option.
    static let configFile = RunOption.handledByCommand(
        "--config", "<path>",
        help: ["The scenario file (default: ./config.json when it exists, else the", "same defaults built in)."])

    /// `--html`: written by ``RunCommand`` from the finished report.
    static let htmlPage = RunOption.handledByCommand(
        "--html", "<path>",
        help: [
            "Also write the report as one self-contained HTML page: summary and",
            "thresholds, a map of regions and sampled tracks, time series, the",
            "latency histogram, profiles side by side (no script, nothing fetched).",
        ])

    /// The options the help page lists after the table's, handled by the command line reader itself.
    static let helpLines = ["  -h, --help              Show help information."]

    /// The option with this flag.
    static func named(_ flag: String) -> RunOption? {
        all.first { $0.flag == flag }
    }
}

extension OptionRule where Value == Bool {
    /// `true` or `false` (config.json booleans; on the command line a flag's presence means `true`).
    static var boolean: OptionRule {
        OptionRule(
            expected: "true, false",
            parse: { text in
                switch text {
                case "true": .success(true)
                case "false": .success(false)
                default: .failure(OptionRejection(message: "must be true or false"))
                }
            },
            read: { (object, key) throws(InputError) -> Bool? in try object.bool(key) })
    }
}
