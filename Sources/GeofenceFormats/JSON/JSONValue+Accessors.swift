// Typed access to JSON values for decoders: every accessor takes the value's key path (`source.speed.max`,
// `features[3].properties.radius`) so that a wrong type becomes an error a user can act on, at the value's line
// and column.

import GeofenceKit

extension JSONValue {
    /// The member `key` of an object; `nil` when absent or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` of an array; `nil` when out of bounds or when this is not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = kind, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// What the value is, with an article, for "expected …, found …" messages.
    public var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// An error about this value: its position, `path` as the field, and `message`.
    public func error(_ message: String, path: String) -> InputError {
        InputError(message, line: line, column: column, field: path.isEmpty ? nil : path)
    }

    /// A finite number. JSON cannot spell NaN, but `1e999` overflows to infinity, which no field accepts.
    /// - Throws: `path: expected a number, found a string` (or `must be a finite number`).
    public func number(path: String) throws(InputError) -> Double {
        guard case .number(let value, let text) = kind else { throw typeMismatch("a number", path: path) }
        guard value.isFinite else { throw error("\(text) is too large for a number", path: path) }
        return value
    }

    /// An integer: a number with no fractional part, within ±2^53 (where `Double` is still exact).
    public func integer(path: String) throws(InputError) -> Int {
        let value = try number(path: path)
        guard value.rounded(.towardZero) == value, abs(value) <= 9_007_199_254_740_992, let integer = Int(exactly: value)
        else {
            throw error("expected an integer, found \(numberText ?? String(value))", path: path)
        }
        return integer
    }

    public func string(path: String) throws(InputError) -> String {
        guard case .string(let value) = kind else { throw typeMismatch("a string", path: path) }
        return value
    }

    public func bool(path: String) throws(InputError) -> Bool {
        guard case .bool(let value) = kind else { throw typeMismatch("true or false", path: path) }
        return value
    }

    public func array(path: String) throws(InputError) -> [JSONValue] {
        guard case .array(let elements) = kind else { throw typeMismatch("an array", path: path) }
        return elements
    }

    /// The members of an object, in file order.
    public func members(path: String) throws(InputError) -> [Member] {
        guard case .object(let members) = kind else { throw typeMismatch("an object", path: path) }
        return members
    }

    /// The number's text as written, for numbers.
    public var numberText: String? {
        if case .number(_, let text) = kind { return text }
        return nil
    }

    /// A whole number from 0 to 2⁶⁴ − 1 read from its text as written (a `Double` holds only 2⁵³ exactly): seeds,
    /// nanosecond counts. `nil` for anything else; each caller says what it expected.
    public var unsignedInteger: UInt64? {
        numberText.flatMap { UInt64($0) }
    }

    /// Rejects members of this object whose key is not in `allowed`, pointing at the first such key.
    ///
    /// The message lists the allowed keys and suggests the closest one, since an unknown key is nearly always a
    /// typo of a known one (`radious`). Not an object is a type error.
    /// - Throws: `path.key: unknown key (did you mean "radius"?; expected one of: …)`.
    public func checkKeys(allowed: Set<String>, path: String) throws(InputError) {
        for member in try members(path: path) where !allowed.contains(member.key) {
            throw Self.unknownKey(member, allowed: allowed, path: path)
        }
    }

    /// `base.key`, or `key` at the top level: the spelling of key paths in messages.
    public static func path(_ base: String, key: String) -> String {
        base.isEmpty ? key : base + "." + key
    }

    /// `base[index]`.
    public static func path(_ base: String, index: Int) -> String {
        base + "[\(index)]"
    }

    private func typeMismatch(_ expected: String, path: String) -> InputError {
        error("expected \(expected), found \(typeDescription)", path: path)
    }

    static func unknownKey(_ member: Member, allowed: Set<String>, path: String) -> InputError {
        let known = allowed.sorted()
        var message = "unknown key"
        if let suggestion = closestKey(to: member.key, among: known) { message += " (did you mean \"\(suggestion)\"?)" }
        message += "; expected one of: " + known.joined(separator: ", ")
        return InputError(message, line: member.line, column: member.column, field: Self.path(path, key: member.key))
    }

    /// The allowed key within two edits (case-insensitively) of `key`, if exactly one is closest.
    private static func closestKey(to key: String, among candidates: [String]) -> String? {
        let target = Array(key.lowercased().unicodeScalars)
        var best: (key: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            if distance <= 2, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.key
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
