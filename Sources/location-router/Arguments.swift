/// A hand-written reader of command-line arguments in swift-argument-parser's conventions:
/// `--name value`, `--name=value`, boolean flags, and positional arguments.
struct Arguments {
    private var tokens: [String]
    private var positionals: [String] = []

    init(_ tokens: [String]) {
        self.tokens = tokens
    }

    /// Removes a boolean flag (any of `names`); true when it was present.
    mutating func flag(_ names: String...) -> Bool {
        let before = tokens.count
        tokens.removeAll { names.contains($0) }
        return tokens.count != before
    }

    /// Whether an option or flag is present (`--name`, or `--name=value`), without removing it.
    func contains(_ name: String) -> Bool {
        tokens.contains { $0 == name || $0.hasPrefix(name + "=") }
    }

    /// A warning for each flag that turns an output off (`--no-report`) given beside the option that names the
    /// output (`--report PATH`): the flag wins, whatever their order, and a command says so rather than silently.
    func overriddenOutputs(_ pairs: [(off: String, on: String)]) -> [String] {
        pairs.filter { contains($0.off) && contains($0.on) }.map {
            "'\($0.off)' overrides '\($0.on)': nothing is written there"
        }
    }

    /// Removes a numeric option and returns its value, checked against `range` (`unit` names it in errors).
    mutating func number(_ name: String, _ unit: String, in range: ClosedRange<Double>) throws(CommandError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(decimal: text), value.isFinite, range.contains(value) else {
            throw .usage("The value '\(text)' is invalid for '\(name) <\(unit)>' (\(range.lowerBound)...\(range.upperBound))")
        }
        return value
    }

    /// Removes `--name value` or `--name=value` and returns the value (the last one when repeated).
    mutating func option(_ name: String) throws(CommandError) -> String? {
        try values(name).last
    }

    /// Removes every `--name value` or `--name=value` of a repeatable option and returns the values in order.
    mutating func values(_ name: String) throws(CommandError) -> [String] {
        var values: [String] = []
        var i = 0
        while i < tokens.count {
            if tokens[i] == name {
                guard i + 1 < tokens.count, !tokens[i + 1].hasPrefix("--") || tokens[i + 1] == "-" else {
                    throw .usage("Missing value for '\(name) <value>'")
                }
                values.append(tokens[i + 1])
                tokens.removeSubrange(i...(i + 1))
            } else if tokens[i].hasPrefix(name + "=") {
                values.append(String(tokens[i].dropFirst(name.count + 1)))
                tokens.remove(at: i)
            } else {
                i += 1
            }
        }
        return values
    }

    /// What remains once every known option is taken: positional arguments. An unknown option is an error.
    mutating func remaining() throws(CommandError) -> [String] {
        var positional: [String] = []
        var onlyPositional = false
        for token in tokens {
            if onlyPositional || token == "-" || !token.hasPrefix("-") {
                positional.append(token)
            } else if token == "--" {
                onlyPositional = true
            } else {
                throw .usage("Unknown option '\(token)'")
            }
        }
        tokens = []
        return positional
    }
}
