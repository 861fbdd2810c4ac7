/// A pass/fail condition on a number of the run report, like k6's thresholds: `METRIC OP NUMBER`, for example
/// `latencyMs.p99 < 5`, `updatesPerSecond > 1000000`, `dropped == 0`.
///
/// `METRIC` is a dotted path into the JSON report (see ``ThresholdMetric/known``), `OP` one of `<`, `<=`, `>`,
/// `>=`, `==`, `!=`, and `NUMBER` a decimal number (`5`, `-1.5`, `1e6`). Blanks around the operator are optional.
public struct Threshold: Sendable, Equatable, CustomStringConvertible {
    public enum Operator: String, Sendable, CaseIterable {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case equal = "=="
        case notEqual = "!="

        /// Whether `value OP limit` holds.
        public func holds(_ value: Double, _ limit: Double) -> Bool {
            switch self {
            case .less: value < limit
            case .lessOrEqual: value <= limit
            case .greater: value > limit
            case .greaterOrEqual: value >= limit
            case .equal: value == limit
            case .notEqual: value != limit
            }
        }
    }

    public var metric: ThresholdMetric
    public var comparison: Operator
    public var limit: Double
    /// The number as written (`1e6` stays `1e6` in messages and the report).
    public var limitText: String

    public init(metric: ThresholdMetric, comparison: Operator, limit: Double) {
        self.metric = metric
        self.comparison = comparison
        self.limit = limit
        self.limitText = Self.format(limit)
    }

    /// Parses `METRIC OP NUMBER`.
    /// - Throws: a ``ThresholdError`` saying what is wrong: an unknown metric (listing the known ones), a missing
    ///   or unknown operator, a missing or malformed number, or text after the number.
    public init(parsing text: String) throws(ThresholdError) {
        try self.init(parsing: text, known: ThresholdMetric.known, knownSummary: ThresholdMetric.knownSummary)
    }

    /// Parses `METRIC OP NUMBER` where `METRIC` is one of `known` (the paths of another report, such as
    /// `location-router score`'s), described as `knownSummary` in messages.
    public init(parsing text: String, known: [String], knownSummary: String) throws(ThresholdError) {
        let operatorCharacters: Set<Character> = ["<", ">", "=", "!"]
        var rest = Substring(text).drop { $0.isWhitespace }
        guard !rest.isEmpty else {
            throw ThresholdError("empty expression (expected METRIC OP NUMBER, such as \"latencyMs.p99 < 5\")")
        }
        let name = rest.prefix { !$0.isWhitespace && !operatorCharacters.contains($0) }
        guard !name.isEmpty else {
            throw ThresholdError("expected a metric before \"\(rest)\" (METRIC OP NUMBER, such as \"latencyMs.p99 < 5\")")
        }
        guard let metric = ThresholdMetric(path: String(name), known: known) else {
            throw ThresholdError("unknown metric \"\(name)\" (known: \(knownSummary))")
        }
        rest = rest.dropFirst(name.count).drop { $0.isWhitespace }
        let symbol = rest.prefix { operatorCharacters.contains($0) }
        let operators = Operator.allCases.map(\.rawValue).joined(separator: " ")
        guard let comparison = Operator(rawValue: String(symbol)) else {
            let found = symbol.isEmpty ? (rest.isEmpty ? "the end" : "\"\(rest)\"") : "\"\(symbol)\""
            throw ThresholdError("expected an operator (\(operators)) after \"\(name)\", found \(found)")
        }
        rest = rest.dropFirst(symbol.count).drop { $0.isWhitespace }
        let number = rest.prefix { !$0.isWhitespace }
        let numberCharacters = Set("0123456789+-.eE")
        guard !number.isEmpty, number.allSatisfy(numberCharacters.contains), let limit = Double(number) else {
            let found = number.isEmpty ? "the end" : "\"\(number)\""
            throw ThresholdError("expected a number after \"\(symbol)\", found \(found)")
        }
        guard limit.isFinite else { throw ThresholdError("\(number) is too large for a number") }
        let trailing = rest.dropFirst(number.count).drop { $0.isWhitespace }
        guard trailing.isEmpty else {
            throw ThresholdError("unexpected \"\(trailing)\" after the number (expected METRIC OP NUMBER)")
        }
        self.metric = metric
        self.comparison = comparison
        self.limit = limit
        self.limitText = String(number)
    }

    /// `METRIC OP NUMBER` with single spaces.
    public var description: String { "\(metric) \(comparison.rawValue) \(limitText)" }

    /// Tests the threshold against a finished run. A metric the report lacks fails.
    public func evaluate(_ report: RunReport) -> ThresholdResult {
        evaluate(value: metric.value(in: report))
    }

    /// Tests the threshold against a value of its metric (`nil`: the report has none, and the threshold fails).
    public func evaluate(value: Double?) -> ThresholdResult {
        ThresholdResult(
            expression: description, metric: metric.path, value: value,
            passed: value.map { comparison.holds($0, limit) } ?? false)
    }

    /// A value as messages and the report's `thresholds` show it: to three decimals, as the report writes numbers,
    /// unless that would change it — a metric compared unrounded (`coverage.ratio`, `score.*`) is shown as it was
    /// compared, so that a verdict never reads `✓ coverage.ratio > 0.99034 (was 0.99)`.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        let text = format3(value)
        return Double(text) == value ? text : String(value)
    }
}

/// Why a threshold expression cannot be read.
public struct ThresholdError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A threshold tested against a run: the `thresholds` entries of the JSON report.
public struct ThresholdResult: Sendable, Equatable {
    /// `METRIC OP NUMBER`, normalized.
    public var expression: String
    public var metric: String
    /// The metric's value as the report shows it; `nil` when the report has none (the threshold then fails).
    public var value: Double?
    public var passed: Bool

    public init(expression: String, metric: String, value: Double?, passed: Bool) {
        self.expression = expression
        self.metric = metric
        self.value = value
        self.passed = passed
    }

    /// `✓ latencyMs.p99 < 5 (was 1.757)` or `✗ updatesPerSecond > 20000000 (was 9874441)`.
    public var line: String {
        let was = value.map { "was \(Threshold.format($0))" } ?? "no value: not in this run's report"
        return "\(passed ? "✓" : "✗") \(expression) (\(was))"
    }

    /// `{"expression":…,"metric":…,"value":…,"passed":…}`.
    public var json: String {
        "{\"expression\":\(EventEncoder.jsonLiteral(expression)),\"metric\":\(EventEncoder.jsonLiteral(metric)),"
            + "\"value\":\(value.flatMap { $0.isFinite ? Threshold.format($0) : nil } ?? "null"),\"passed\":\(passed)}"
    }
}
