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
    public var description: String {
        var location = ""
        if let file { location += file }
        if let line {
            location += location.isEmpty ? "line \(line)" : ":\(line)"
            if let column { location += ":\(column)" }
        }
        var text = location.isEmpty ? "" : location + ": "
        if let field { text += field + ": " }
        return text + message
    }
}
