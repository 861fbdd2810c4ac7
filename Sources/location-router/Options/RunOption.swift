import GeofenceFormats
import GeofenceKit

/// One option of `run`: its command-line flag, its config.json key, the rule its value meets, its help lines and
/// where it goes in the ``Scenario``.
///
/// ``RunOption/all`` lists every option once. The command line (``Scenario/apply(arguments:)``), config.json
/// (``Scenario/apply(configJSON:)``) and the help page (``HelpText/run``) are all read from that table, so a flag
/// and its key accept the same values and the help cannot forget an option. Adding an option is adding one entry
/// (see `RunOption+Table.swift`), plus the code that uses its value.
struct RunOption: Sendable {
    /// The command-line spelling (`--devices`), or nil for a config.json-only key.
    let flag: String?
    /// Other spellings of the flag (`-q`).
    var aliases: [String] = []
    /// The value's name in help and errors (`<n>`); nil for a boolean flag.
    let placeholder: String?
    /// The config.json key path (`source.devices`), or nil for a command-line-only option.
    let key: String?
    /// The help page's lines: the first beside the flag, the rest below it.
    let help: [String]
    /// Applies the values given on the command line, in order (never empty); nil when the command itself
    /// handles the option (`--config`, `--html`).
    let applyArguments: (@Sendable (inout Scenario, [String]) throws(CommandError) -> Void)?
    /// Reads the option's key (its last component) from the object holding it, when present.
    let applyConfig: (@Sendable (inout Scenario, inout JSONObjectReader, String) throws(InputError) -> Void)?

    /// `--devices <n>`, as the help page writes it.
    var synopsis: String {
        [flag ?? key ?? "", placeholder].compactMap { $0 }.joined(separator: " ")
    }

    /// An option whose command-line value and config value follow one ``OptionRule``.
    ///
    /// - Parameters:
    /// On the command line the last occurrence wins.
    ///   - errorName: the value's name in command-line errors when it is longer than the help's (`<metres>`).
    ///   - store: puts a checked value in the scenario.
    static func value<Value: Sendable>(
        _ flag: String?, _ placeholder: String?, key: String?, _ rule: OptionRule<Value>, errorName: String? = nil,
        help: [String], store: @escaping @Sendable (inout Scenario, Value) -> Void
    ) -> RunOption {
        let synopsis = [flag ?? "", errorName ?? placeholder].compactMap { $0 }.joined(separator: " ")
        let fromArguments: @Sendable (inout Scenario, [String]) throws(CommandError) -> Void = { scenario, texts throws(CommandError) in
            guard let text = texts.last else { return }
            store(&scenario, try rule.parse(text, for: synopsis))
        }
        let fromConfig: @Sendable (inout Scenario, inout JSONObjectReader, String) throws(InputError) -> Void = {
            scenario, object, name throws(InputError) in
            if let value = try rule.read(&object, name) { store(&scenario, value) }
        }
        return RunOption(
            flag: flag, placeholder: placeholder, key: key, help: help,
            applyArguments: flag == nil ? nil : fromArguments, applyConfig: key == nil ? nil : fromConfig)
    }

    /// A boolean flag (`--quiet`) that sets its config key's value when present on the command line.
    static func flag(
        _ flag: String, aliases: [String] = [], key: String?, help: [String],
        store: @escaping @Sendable (inout Scenario, Bool) -> Void
    ) -> RunOption {
        let fromConfig: @Sendable (inout Scenario, inout JSONObjectReader, String) throws(InputError) -> Void = {
            scenario, object, name throws(InputError) in
            if let on = try object.bool(name) { store(&scenario, on) }
        }
        return RunOption(
            flag: flag, aliases: aliases, placeholder: nil, key: key, help: help,
            applyArguments: { scenario, _ throws(CommandError) in store(&scenario, true) },
            applyConfig: key == nil ? nil : fromConfig)
    }

    /// A repeatable option whose values form a list, read from a JSON array of strings under its key.
    static func list<Element: Sendable>(
        _ flag: String, _ placeholder: String, key: String?, _ rule: OptionRule<Element>, help: [String],
        store: @escaping @Sendable (inout Scenario, [Element]) -> Void
    ) -> RunOption {
        let synopsis = "\(flag) \(placeholder)"
        let fromConfig: @Sendable (inout Scenario, inout JSONObjectReader, String) throws(InputError) -> Void = {
            scenario, object, name throws(InputError) in
            guard let values = try object.array(name) else { return }
            var elements: [Element] = []
            for (index, value) in values.enumerated() {
                let path = JSONValue.path(object.path(of: name), index: index)
                elements.append(try rule.read(string: try value.string(path: path), at: value, path: path))
            }
            store(&scenario, elements)
        }
        return RunOption(
            flag: flag, placeholder: placeholder, key: key, help: help,
            applyArguments: { scenario, texts throws(CommandError) in
                var elements: [Element] = []
                for text in texts { elements.append(try rule.parse(text, for: synopsis)) }
                store(&scenario, elements)
            },
            applyConfig: key == nil ? nil : fromConfig)
    }

    /// A command-line option that the command reads itself (it has no place in the scenario).
    static func handledByCommand(_ flag: String, _ placeholder: String, help: [String]) -> RunOption {
        RunOption(flag: flag, placeholder: placeholder, key: nil, help: help, applyArguments: nil, applyConfig: nil)
    }

    /// A config.json key whose value is an object or has a shape of its own (`source.center`), read by `read`.
    static func configObject(
        _ key: String, read: @escaping @Sendable (inout Scenario, inout JSONObjectReader, String) throws(InputError) -> Void
    ) -> RunOption {
        RunOption(flag: nil, placeholder: nil, key: key, help: [], applyArguments: nil, applyConfig: read)
    }
}

extension RunOption {
    /// The OPTIONS lines of `run --help`: every option with a flag, in table order, in swift-argument-parser's
    /// layout (the flag in a 24-column field, the help beside it and below it).
    static var helpSection: String {
        var lines: [String] = []
        for option in all {
            guard option.flag != nil, !option.help.isEmpty else { continue }
            let synopsis = option.synopsis
            let field = synopsis.count < 24 ? synopsis.padding(toLength: 24, withPad: " ", startingAt: 0) : synopsis + " "
            lines.append("  " + field + option.help[0])
            lines += option.help.dropFirst().map { String(repeating: " ", count: 26) + $0 }
        }
        return (lines + helpLines).joined(separator: "\n") + "\n"
    }
}
