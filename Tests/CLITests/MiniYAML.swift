/// A reader of the small YAML subset the Kubernetes manifests use, so that `swift test` can check them without
/// a YAML library: block mappings and sequences by indentation (spaces only), `- key: value` items, plain and
/// quoted scalars, `|` literal blocks, comments on their own lines. Anything else is an error with its line.
indirect enum YAMLNode {
    case scalar(String)
    case map([(key: String, value: YAMLNode)])
    case list([YAMLNode])

    subscript(key: String) -> YAMLNode? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    subscript(index: Int) -> YAMLNode? {
        guard case .list(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    var string: String? {
        guard case .scalar(let text) = self else { return nil }
        return text
    }

    var items: [YAMLNode] {
        guard case .list(let items) = self else { return [] }
        return items
    }

    /// The node at a dotted path of keys and list indices (`spec.template.spec.containers.0.args`).
    func at(_ path: String) -> YAMLNode? {
        var node: YAMLNode? = self
        for part in path.split(separator: ".") {
            node = Int(part).map { node?[$0] } ?? node?[String(part)]
        }
        return node
    }
}

struct YAMLError: Error, CustomStringConvertible {
    var line: Int
    var message: String
    var description: String { "line \(line): \(message)" }
}

struct MiniYAML {
    private struct Line {
        var indent: Int
        var text: String
        var number: Int
    }

    private var lines: [Line]
    private var raw: [String]
    private var next = 0

    static func parse(_ text: String) throws -> YAMLNode {
        var parser = MiniYAML(text: text)
        guard let first = parser.peek() else { throw YAMLError(line: 1, message: "empty document") }
        let node = try parser.block(indent: first.indent)
        if let extra = parser.peek() { throw YAMLError(line: extra.number, message: "unexpected indentation") }
        return node
    }

    private init(text: String) {
        raw = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines = raw.enumerated().map { index, line in
            let indent = line.prefix { $0 == " " }.count
            return Line(indent: indent, text: String(line.dropFirst(indent)), number: index + 1)
        }
    }

    /// The next line that holds something (not blank, not a comment).
    private mutating func peek() -> Line? {
        while next < lines.count {
            let line = lines[next]
            if line.text.isEmpty || line.text.hasPrefix("#") || line.text == "---" { next += 1 } else { return line }
        }
        return nil
    }

    private mutating func block(indent: Int) throws -> YAMLNode {
        guard let line = peek() else { return .scalar("") }
        if line.text.hasPrefix("\t") { throw YAMLError(line: line.number, message: "tabs are not indentation") }
        return line.text == "-" || line.text.hasPrefix("- ") ? try list(indent: indent) : try map(indent: indent)
    }

    private mutating func list(indent: Int) throws -> YAMLNode {
        var items: [YAMLNode] = []
        while let line = peek(), line.indent == indent, line.text == "-" || line.text.hasPrefix("- ") {
            let content = String(line.text.dropFirst(2))
            if content.isEmpty {
                next += 1
                guard let child = peek(), child.indent > indent else { items.append(.scalar("")); continue }
                items.append(try block(indent: child.indent))
            } else if Self.splitKey(content) != nil {
                // `- key: value` opens a mapping whose keys line up with `key`.
                lines[next] = Line(indent: indent + 2, text: content, number: line.number)
                items.append(try map(indent: indent + 2))
            } else {
                next += 1
                items.append(.scalar(Self.unquote(content)))
            }
        }
        return .list(items)
    }

    private mutating func map(indent: Int) throws -> YAMLNode {
        var pairs: [(key: String, value: YAMLNode)] = []
        while let line = peek(), line.indent == indent, !(line.text == "-" || line.text.hasPrefix("- ")) {
            guard let (key, rest) = Self.splitKey(line.text) else {
                throw YAMLError(line: line.number, message: "expected 'key: value', found '\(line.text)'")
            }
            guard !pairs.contains(where: { $0.key == key }) else {
                throw YAMLError(line: line.number, message: "duplicate key '\(key)'")
            }
            next += 1
            let value: YAMLNode
            if rest == "|" {
                value = .scalar(literalBlock(parentIndent: indent))
            } else if !rest.isEmpty {
                value = .scalar(Self.unquote(rest))
            } else if let child = peek(), child.indent > indent
                || (child.indent == indent && (child.text == "-" || child.text.hasPrefix("- ")))
            {
                value = try block(indent: child.indent)
            } else {
                value = .scalar("")
            }
            pairs.append((key, value))
        }
        if let line = peek(), line.indent > indent {
            throw YAMLError(line: line.number, message: "unexpected indentation")
        }
        return .map(pairs)
    }

    /// The lines of a `|` block: every following line indented deeper than its key (or blank), dedented.
    private mutating func literalBlock(parentIndent: Int) -> String {
        var body: [Line] = []
        while next < lines.count, lines[next].text.isEmpty || lines[next].indent > parentIndent {
            body.append(lines[next])
            next += 1
        }
        while body.last?.text.isEmpty == true { body.removeLast() }
        let indent = body.filter { !$0.text.isEmpty }.map(\.indent).min() ?? 0
        return body.map { String(repeating: " ", count: max(0, $0.indent - indent)) + $0.text }
            .joined(separator: "\n") + "\n"
    }

    /// `key: value` or `key:` → (key, value); `nil` when the text is not a mapping entry.
    private static func splitKey(_ text: String) -> (String, String)? {
        if text.hasPrefix("\"") || text.hasPrefix("'") { return nil }
        if let range = text.range(of: ": ") {
            let key = String(text[..<range.lowerBound])
            return key.isEmpty || key.contains(" ") ? nil : (key, String(text[range.upperBound...]).trimmingTrailingSpaces)
        }
        if text.hasSuffix(":"), !text.dropLast().contains(" "), text.count > 1 { return (String(text.dropLast()), "") }
        return nil
    }

    private static func unquote(_ text: String) -> String {
        for quote in ["\"", "'"] where text.count >= 2 && text.hasPrefix(quote) && text.hasSuffix(quote) {
            return String(text.dropFirst().dropLast())
        }
        return text
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
