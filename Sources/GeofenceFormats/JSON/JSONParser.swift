import GeofenceKit

/// Parses a whole JSON document into a ``JSONValue`` tree, strictly (RFC 8259) and with positions.
///
/// Beyond the grammar it rejects what would silently lose data: duplicate keys in an object (which one would
/// win?), anything but whitespace after the top-level value, and nesting deeper than a limit (an error instead of
/// a stack overflow on hostile input). One leading UTF-8 byte order mark is skipped.

public enum JSONParser {
    /// Nesting deeper than this is an error; real documents stay far below it.
    public static let defaultMaximumDepth = 512

    /// Parses `bytes` as one JSON document.
    /// - Throws: ``InputError`` with the line and column of the first problem (attach the file with `in(file:)`).
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(InputError)
        -> JSONValue
    {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(InputError) in try parse(buffer, maximumDepth: maximumDepth) }
        }
        return try result.get()
    }

    /// Parses the UTF-8 of `text` as one JSON document; see ``parse(_:maximumDepth:)-([UInt8],_)``.
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(InputError)
        -> JSONValue
    {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }

    /// Parses the bytes of a buffer that stays valid for the duration of the call.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = defaultMaximumDepth)
        throws(InputError) -> JSONValue
    {
        var parser = TreeBuilder(scanner: JSONScanner(bytes), maximumDepth: maximumDepth)
        parser.scanner.skipWhitespace()
        guard !parser.scanner.isAtEnd else { throw parser.scanner.error("empty input: expected a JSON value") }
        let value = try parser.parseValue(depth: 0)
        parser.scanner.skipWhitespace()
        guard parser.scanner.isAtEnd else {
            throw parser.scanner.unexpected(expected: "the end of the input after the top-level value")
        }
        return value
    }
}

extension JSONParser {
    /// Parses one JSON document whose top-level object has a member `key` holding an array, handing each element
    /// of that array to `element` as soon as it is parsed — and then forgetting it — so that memory holds one
    /// element at a time, not the tree of the whole array (a GeoJSON file's `features`).
    ///
    /// Returns the document with that array left empty (its position kept). A document whose top level is not
    /// an object, or whose member `key` is not an array, is parsed whole and returned as it is. Errors are those
    /// of ``parse(_:maximumDepth:)-([UInt8],_)``, at their places in the whole document.
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, streaming key: String, maximumDepth: Int = defaultMaximumDepth,
        element: (_ value: JSONValue, _ index: Int) throws(InputError) -> Void
    ) throws(InputError) -> JSONValue {
        try parse(bytes, streaming: key, maximumDepth: maximumDepth, shortcut: { _, _ in 0 }, element: element)
    }

    /// Like ``parse(_:streaming:maximumDepth:element:)``, but each element of the streamed array is first offered
    /// to `shortcut`, which may read it straight from the scanner (without a tree) — and the elements after it, a
    /// run of them separated by commas — and return how many it read, leaving the scanner after the last one.
    /// When it returns 0 the scanner goes back to the element's start and the element is parsed as a tree.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, streaming key: String, maximumDepth: Int = defaultMaximumDepth,
        shortcut: (_ scanner: inout JSONScanner, _ index: Int) -> Int,
        element: (_ value: JSONValue, _ index: Int) throws(InputError) -> Void
    ) throws(InputError) -> JSONValue {
        var parser = TreeBuilder(scanner: JSONScanner(bytes), maximumDepth: maximumDepth)
        parser.scanner.skipWhitespace()
        guard !parser.scanner.isAtEnd else { throw parser.scanner.error("empty input: expected a JSON value") }
        let value: JSONValue
        if parser.scanner.peek() == UInt8(ascii: "{") {
            let mark = parser.scanner.mark
            let members = try withoutActuallyEscaping(shortcut) { (shortcut) throws(InputError) in
                try withoutActuallyEscaping(element) { (element) throws(InputError) in
                    try parser.parseObject(
                        depth: 1, mark: mark, streamedKey: key,
                        element: StreamedElements(shortcut: shortcut, tree: element))
                }
            }
            value = JSONValue(.object(members), line: mark.line, column: mark.column)
        } else {
            value = try parser.parseValue(depth: 0)
        }
        parser.scanner.skipWhitespace()
        guard parser.scanner.isAtEnd else {
            throw parser.scanner.unexpected(expected: "the end of the input after the top-level value")
        }
        return value
    }
}

/// Where the elements of a streamed array go: to `shortcut` first, and as trees when it declines.
struct StreamedElements {
    var shortcut: (inout JSONScanner, Int) -> Int
    var tree: (JSONValue, Int) throws(InputError) -> Void
}

/// The recursive-descent half of ``JSONParser``; the scanner does the lexing and the positions.
private struct TreeBuilder {
    var scanner: JSONScanner
    let maximumDepth: Int

    /// Objects with more members than this check duplicates with a set instead of a linear search.
    private static let linearDuplicateSearchLimit = 16

    mutating func parseValue(depth: Int) throws(InputError) -> JSONValue {
        let mark = scanner.mark
        let kind: JSONValue.Kind
        switch scanner.peek() ?? 0 {
        case UInt8(ascii: "{"):
            kind = .object(try parseObject(depth: depth + 1, mark: mark))
        case UInt8(ascii: "["):
            kind = .array(try parseArray(depth: depth + 1, mark: mark))
        case UInt8(ascii: "\""):
            kind = .string(try scanner.readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try scanner.readNumber()
            kind = .number(token.value, text: scanner.text(of: token.span))
        default:
            kind = try scanner.readLiteral().map { .bool($0) } ?? .null
        }
        return JSONValue(kind, line: mark.line, column: mark.column)
    }

    private mutating func enter(depth: Int, mark: JSONScanner.Mark) throws(InputError) {
        guard depth <= maximumDepth else {
            throw InputError(
                "nesting is deeper than \(maximumDepth) levels", line: mark.line, column: mark.column)
        }
        scanner.skipWhitespace()  // after the opening bracket
    }

    private mutating func parseArray(depth: Int, mark: JSONScanner.Mark) throws(InputError) -> [JSONValue] {
        _ = scanner.consume(UInt8(ascii: "["))
        try enter(depth: depth, mark: mark)
        var elements: [JSONValue] = []
        if scanner.consume(UInt8(ascii: "]")) { return elements }
        while true {
            scanner.skipWhitespace()
            elements.append(try parseValue(depth: depth))
            scanner.skipWhitespace()
            if scanner.consume(UInt8(ascii: "]")) { return elements }
            try scanner.expect(UInt8(ascii: ","), "',' or ']'")
        }
    }

    /// An object's members. With `streamedKey`, that member's array (when it is one) is not kept: its elements go to
    /// `element` one by one as they are parsed (see ``JSONParser/parse(_:streaming:maximumDepth:element:)``).
    mutating func parseObject(
        depth: Int, mark: JSONScanner.Mark, streamedKey: String? = nil,
        element: StreamedElements? = nil
    ) throws(InputError) -> [JSONValue.Member] {
        _ = scanner.consume(UInt8(ascii: "{"))
        try enter(depth: depth, mark: mark)
        var members: [JSONValue.Member] = []
        var keyIndex: [String: Int] = [:]  // filled only for large objects
        if scanner.consume(UInt8(ascii: "}")) { return members }
        while true {
            scanner.skipWhitespace()
            let keyMark = scanner.mark
            guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.unexpected(expected: "a key in quotes") }
            let key = try scanner.readString()
            if let first = firstIndex(of: key, in: members, index: &keyIndex) {
                let original = members[first]
                throw InputError(
                    "duplicate key \"\(key)\" (first at line \(original.line), column \(original.column))",
                    line: keyMark.line, column: keyMark.column)
            }
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"), "':' after the key")
            scanner.skipWhitespace()
            let value: JSONValue
            if let element, key == streamedKey, scanner.peek() == UInt8(ascii: "[") {
                value = try parseArray(streamingTo: element, depth: depth + 1)
            } else {
                value = try parseValue(depth: depth)
            }
            members.append(JSONValue.Member(key: key, value: value, line: keyMark.line, column: keyMark.column))
            if members.count > Self.linearDuplicateSearchLimit { keyIndex[key] = members.count - 1 }
            scanner.skipWhitespace()
            if scanner.consume(UInt8(ascii: "}")) { return members }
            try scanner.expect(UInt8(ascii: ","), "',' or '}'")
        }
    }

    /// An array whose elements go to `element` as they are parsed; returns it empty, at its position.
    private mutating func parseArray(streamingTo element: StreamedElements, depth: Int) throws(InputError)
        -> JSONValue
    {
        let mark = scanner.mark
        _ = scanner.consume(UInt8(ascii: "["))
        try enter(depth: depth, mark: mark)
        if !scanner.consume(UInt8(ascii: "]")) {
            var index = 0
            while true {
                scanner.skipWhitespace()
                let start = scanner
                let read = element.shortcut(&scanner, index)
                if read == 0 {
                    scanner = start
                    try element.tree(try parseValue(depth: depth), index)
                }
                index += max(read, 1)
                scanner.skipWhitespace()
                if scanner.consume(UInt8(ascii: "]")) { break }
                try scanner.expect(UInt8(ascii: ","), "',' or ']'")
            }
        }
        return JSONValue(.array([]), line: mark.line, column: mark.column)
    }

    /// Where `key` already occurs; small objects are searched linearly, large ones through `index`.
    private func firstIndex(of key: String, in members: [JSONValue.Member], index: inout [String: Int]) -> Int? {
        if members.count < Self.linearDuplicateSearchLimit {
            return members.firstIndex { $0.key == key }
        }
        if index.isEmpty {
            for (position, member) in members.enumerated() { index[member.key] = position }
        }
        return index[key]
    }
}
