import GeofenceFormats
import GeofenceKit

/// What a valid value of an option is, checked the same way whether it comes from the command line or from
/// config.json: one check, two ways of reading and two ways of saying what is wrong.
struct OptionRule<Value: Sendable>: Sendable {
    /// What a valid value looks like, for command-line errors: `1...1024`, `skip, fail`.
    let expected: String
    /// Parses and checks a text value.
    private let parseText: @Sendable (String) -> Result<Value, OptionRejection>
    /// Reads the key's JSON value (nil when absent); the default reads a string and parses it.
    private let readJSON: (@Sendable (inout JSONObjectReader, String) throws(InputError) -> Value?)?

    init(
        expected: String, parse: @escaping @Sendable (String) -> Result<Value, OptionRejection>,
        read: (@Sendable (inout JSONObjectReader, String) throws(InputError) -> Value?)? = nil
    ) {
        self.expected = expected
        self.parseText = parse
        self.readJSON = read
    }

    /// A command-line value, or the usage error naming the option and what it accepts.
    func parse(_ text: String, for synopsis: String) throws(CommandError) -> Value {
        switch parseText(text) {
        case .success(let value): return value
        case .failure(let rejection) where rejection.detailsOnCommandLine:
            throw .usage("The value '\(text)' is invalid for '\(synopsis)': \(rejection.message)")
        case .failure:
            throw .usage("The value '\(text)' is invalid for '\(synopsis)' (\(expected))")
        }
    }

    /// The value of `key` in a config object, nil when absent or `null`.
    func read(_ object: inout JSONObjectReader, _ key: String) throws(InputError) -> Value? {
        if let readJSON { return try readJSON(&object, key) }
        guard let text = try object.string(key) else { return nil }
        switch parseText(text) {
        case .success(let value): return value
        case .failure(let rejection): throw object.error(rejection.message, key: key)
        }
    }

    /// A string element of a config array (at `path`).
    func read(string text: String, at value: JSONValue, path: String) throws(InputError) -> Value {
        switch parseText(text) {
        case .success(let parsed): return parsed
        case .failure(let rejection): throw value.error(rejection.message, path: path)
        }
    }

    /// The same rule where config.json's `null` means none (the value is then nil).
    var orNull: OptionRule<Value?> {
        let rule = self
        return OptionRule<Value?>(
            expected: expected, parse: { text in rule.parseText(text).map { $0 } },
            read: { (object, key) throws(InputError) -> Value?? in
                guard let found = object.value(key) else { return nil }
                if found.isNull { return .some(nil) }
                return try rule.read(&object, key).map { $0 }
            })
    }
}

extension OptionRule {
    /// A value the user names (`skip`, a URL, `0/4`): `parse` returns nil when invalid, and config.json says
    /// `message`.
    static func text(
        _ expected: String, message: String, _ parse: @escaping @Sendable (String) -> Value?
    ) -> OptionRule {
        OptionRule(expected: expected, parse: { text in
            parse(text).map { .success($0) } ?? .failure(OptionRejection(message: message))
        })
    }
}

extension OptionRule where Value == String {
    /// Any text: a path, `-`.
    static var anyText: OptionRule { .text("text", message: "must be a string") { $0 } }
}

extension OptionRule where Value == Double {
    /// A finite number > 0 and ≤ `max`.
    static func positive(max: Double) -> OptionRule {
        number(expected: "> 0, ≤ \(Int(max))") { value in
            guard value.isFinite, value > 0 else { return "must be > 0" }
            return value <= max ? nil : "must be ≤ \(Int(max))"
        }
    }

    /// A finite number ≥ 0 and ≤ `max`.
    static func nonNegative(max: Double) -> OptionRule {
        number(expected: "0...\(Int(max))") { value in
            guard value.isFinite, value >= 0 else { return "must be ≥ 0" }
            return value <= max ? nil : "must be ≤ \(Int(max))"
        }
    }

    /// A finite number in `range`; config.json says `message` otherwise.
    static func within(_ range: ClosedRange<Double>, message: String) -> OptionRule {
        let bounds = [range.lowerBound, range.upperBound].map { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" }
        return number(expected: bounds.joined(separator: "...")) { value in
            value.isFinite && range.contains(value) ? nil : message
        }
    }

    /// A number checked by `problem` (nil: valid, else the config.json message).
    static func number(expected: String, _ problem: @escaping @Sendable (Double) -> String?) -> OptionRule {
        OptionRule(
            expected: expected,
            parse: { text in
                guard let value = Double(decimal: text) else {
                    return .failure(OptionRejection(message: "must be a number"))
                }
                return problem(value).map { .failure(OptionRejection(message: $0)) } ?? .success(value)
            },
            read: { (object, key) throws(InputError) -> Double? in
                guard let value = try object.number(key) else { return nil }
                if let message = problem(value) { throw object.error(message, key: key) }
                return value
            })
    }
}

extension OptionRule where Value == Int {
    /// A whole number in `range`; config.json says `message` (default: `must be LOW...HIGH`) otherwise.
    static func integer(_ range: ClosedRange<Int>, message: String? = nil) -> OptionRule {
        let message = message ?? "must be \(range.lowerBound)...\(range.upperBound)"
        return OptionRule(
            expected: "\(range.lowerBound)...\(range.upperBound)",
            parse: { text in
                guard let value = Int(text), range.contains(value) else { return .failure(OptionRejection(message: message)) }
                return .success(value)
            },
            read: { (object, key) throws(InputError) -> Int? in
                guard let value = try object.integer(key) else { return nil }
                guard range.contains(value) else { throw object.error(message, key: key) }
                return value
            })
    }
}

/// Why a value was refused: a config.json message (`must be > 0`), and whether the command line shows it instead
/// of the rule's ``OptionRule/expected`` (the threshold parser's own words, say).
struct OptionRejection: Error {
    let message: String
    var detailsOnCommandLine = false
}
