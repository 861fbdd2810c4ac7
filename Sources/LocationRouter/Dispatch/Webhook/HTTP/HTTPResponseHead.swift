import Foundation

/// The status line and header fields of an HTTP/1.x response, parsed strictly: anything that is not a
/// well-formed head is `nil`, never a guess, so a garbled answer can never pass for a 2xx.
struct HTTPResponseHead: Sendable, Equatable {
    /// The three-digit status code, 100...599.
    let status: Int
    /// The fields in the order received, names as sent.
    let fields: [(name: String, value: String)]

    /// The value of the first field called `name` (compared case-insensitively).
    func value(for name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of the fields called `name`, comma-separated lists split, in order.
    func values(for name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func == (lhs: HTTPResponseHead, rhs: HTTPResponseHead) -> Bool {
        lhs.status == rhs.status && lhs.fields.map(\.name) == rhs.fields.map(\.name)
            && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    /// Parses a head without its terminating empty line. Lines end in CRLF or a bare LF.
    /// - Returns: `nil` unless the first line is `HTTP/<digit>.<digit> <3 digits>[ <reason>]` with a status
    ///   in 100...599 and every further line is `name: value` (a line starting with a space or tab, the
    ///   obsolete folding, continues the previous value).
    init?(_ bytes: ArraySlice<UInt8>) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard !lines.isEmpty, let status = Self.status(inStatusLine: lines.removeFirst()) else { return nil }
        var fields: [(name: String, value: String)] = []
        for line in lines {
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                guard let last = fields.popLast() else { return nil }
                let continued = [last.value, Self.text(line)].filter { !$0.isEmpty }.joined(separator: " ")
                fields.append((last.name, continued))
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(Self.isTokenCharacter)
            else { return nil }
            fields.append((Self.text(line[..<colon]), Self.text(line[(colon + 1)...])))
        }
        self.status = status
        self.fields = fields
    }

    private static func status(inStatusLine line: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(line)
        let prefix = Array("HTTP/".utf8)
        guard bytes.count >= 12, Array(bytes[0..<5]) == prefix, isDigit(bytes[5]), bytes[6] == UInt8(ascii: "."),
            isDigit(bytes[7]), bytes[8] == UInt8(ascii: " "), bytes[9...11].allSatisfy(isDigit),
            bytes.count == 12 || bytes[12] == UInt8(ascii: " ")
        else { return nil }
        let status = bytes[9...11].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (100...599).contains(status) ? status : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// RFC 9110 `tchar`: what a field name may consist of.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") || byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
            return true
        }
        return isDigit(byte) || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }

    /// A field's bytes as text, surrounding whitespace removed; invalid UTF-8 is replaced, not trusted.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
