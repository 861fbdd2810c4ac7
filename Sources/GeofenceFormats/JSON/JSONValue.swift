import GeofenceKit

/// A parsed JSON value that remembers where it was written, so decoders can point at the offending text.
///
/// Objects keep their members in file order (as an array, since order matters for regions and messages) and
/// never hold duplicate keys: ``JSONParser`` rejects those. Numbers keep their source text next to the `Double`,
/// so identifiers like `17` print as written and decimal fields can be converted exactly.

public struct JSONValue: Sendable, Equatable {
    /// The kinds of JSON values.
    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The nearest `Double` (±infinity when the text exceeds its range) and the text as written.
        case number(Double, text: String)
        case string(String)
        case array([JSONValue])
        case object([Member])
    }

    /// One `"key": value` pair of an object, with the position of the key for "unknown key" messages.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        /// The 1-based line of the key's opening quote.
        public var line: Int
        /// The 1-based column (in Unicode scalars) of the key's opening quote.
        public var column: Int

        public init(key: String, value: JSONValue, line: Int, column: Int) {
            self.key = key
            self.value = value
            self.line = line
            self.column = column
        }
    }

    public var kind: Kind
    /// The 1-based line where the value starts.
    public var line: Int
    /// The 1-based column (in Unicode scalars) where the value starts.
    public var column: Int

    public init(_ kind: Kind, line: Int, column: Int) {
        self.kind = kind
        self.line = line
        self.column = column
    }
}
