import GeofenceKit

/// Reads the members of one JSON object for a strict decoder, remembering which keys were read so that
/// ``finish()`` can reject the rest as unknown (typos in config files must not be silently ignored).
///
/// ```swift
/// var root = try JSONObjectReader(try JSONParser.parse(bytes), path: "")
/// if var source = try root.object("source") {
///     let maxSpeed = try source.number("maxSpeed") ?? 15
///     guard maxSpeed > 0 else { throw source.error("must be > 0", key: "maxSpeed") }
///     try source.finish()        // "source.maxSpeeed: unknown key (did you mean "maxSpeed"?; …)"
/// }
/// try root.finish()
/// ```
/// Absent keys and explicit `null` both read as `nil` (use the default); a present value of the wrong type is an
/// error naming its key path, such as `source.maxSpeed: expected a number, found a string`.

public struct JSONObjectReader: Sendable {
    /// The object being read.
    public let value: JSONValue
    /// The key path of the object (`""` for the top level).
    public let path: String
    private let members: [JSONValue.Member]
    /// The keys asked for, in order, repeats included: an array, not a set (a snapshot reads millions of small
    /// objects, and hashing every key asked for was most of reading one); `finish()` compares a few keys.
    private var readKeys: [String] = []

    /// - Throws: `path: expected an object, found …` when `value` is not an object.
    public init(_ value: JSONValue, path: String) throws(InputError) {
        self.value = value
        self.path = path
        self.members = try value.members(path: path)
    }

    /// The key path of member `key` of this object.
    public func path(of key: String) -> String { JSONValue.path(path, key: key) }

    /// The value of `key`, marking it read; `nil` when absent. `null` is returned as a value here.
    public mutating func value(_ key: String) -> JSONValue? {
        readKeys.append(key)
        return members.first { $0.key == key }?.value
    }

    /// The value of `key`, which must be present and not `null`.
    /// - Throws: `path.key: missing` at the object's position.
    public mutating func requiredValue(_ key: String) throws(InputError) -> JSONValue {
        guard let found = value(key), !found.isNull else { throw value.error("missing", path: path(of: key)) }
        return found
    }

    public mutating func number(_ key: String) throws(InputError) -> Double? {
        try present(key)?.number(path: path(of: key))
    }

    public mutating func integer(_ key: String) throws(InputError) -> Int? {
        try present(key)?.integer(path: path(of: key))
    }

    public mutating func string(_ key: String) throws(InputError) -> String? {
        try present(key)?.string(path: path(of: key))
    }

    public mutating func bool(_ key: String) throws(InputError) -> Bool? {
        try present(key)?.bool(path: path(of: key))
    }

    public mutating func array(_ key: String) throws(InputError) -> [JSONValue]? {
        try present(key)?.array(path: path(of: key))
    }

    /// A reader for the nested object `key`; remember to call its own ``finish()``.
    public mutating func object(_ key: String) throws(InputError) -> JSONObjectReader? {
        guard let found = present(key) else { return nil }
        return try JSONObjectReader(found, path: path(of: key))
    }

    /// An error about member `key` (at its value, or at the object when the key is absent).
    public func error(_ message: String, key: String) -> InputError {
        (members.first { $0.key == key }?.value ?? value).error(message, path: path(of: key))
    }

    /// The keys of the object that no accessor has asked for, in file order.
    public var unreadKeys: [String] {
        members.map(\.key).filter { !readKeys.contains($0) }
    }

    /// Rejects the first key that was never read as unknown, listing the keys that were read as the allowed ones.
    public func finish() throws(InputError) {
        for member in members where !readKeys.contains(member.key) {
            throw JSONValue.unknownKey(member, allowed: Set(readKeys), path: path)
        }
    }

    private mutating func present(_ key: String) -> JSONValue? {
        guard let found = value(key), !found.isNull else { return nil }
        return found
    }
}
