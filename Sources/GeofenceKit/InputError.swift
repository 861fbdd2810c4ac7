/// An error in user input that says where it is: file, line, column and field (a key path such as
/// `features[3].properties.radius`), whichever are known.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var line: Int?
    public var column: Int?
    public var field: String?
    public var message: String

    public init(_ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil, field: String? = nil) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.field = field
    }

    /// The same error attributed to `file`.
    public func `in`(file: String) -> InputError {
        var copy = self
        copy.file = file
        return copy
    }

    /// `file:line:column: field: message`, leaving out the parts that are not known.
    ///
    /// Messages quote the input they complain about, and hostile input can hold control characters (an escape
    /// sequence that clears the terminal, a line break that forges a second message): those are written as
    /// `\u{1B}`, so the text is safe to print.
    public var description: String {
        var location = ""
        if let file { location += file }
        if let line {
            location += location.isEmpty ? "line \(line)" : ":\(line)"
            if let column { location += ":\(column)" }
        }
        var text = location.isEmpty ? "" : location + ": "
        if let field { text += field + ": " }
        return Self.printable(text + message)
    }

    /// `text` with C0 and C1 control characters (and DEL) escaped as `\u{…}`.
    static func printable(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                escaped.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
