#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

// The prolog (byte order mark, XML declaration, encoding), processing instructions and DOCTYPE.

extension XMLTokenizer {
    mutating func processingInstruction(_ p: UnsafePointer<UInt8>, at i: Int, count n: Int) throws(InputError) -> Int? {
        guard let close = Self.find(0x3F, 0x3E, in: p, from: i + 2, to: n) else { return nil }  // ?>
        var j = i + 2
        while j < close && !Self.isSpace(p[j]) { j += 1 }
        let target = name(p, i + 2, j)
        if target.lowercased() == "xml" && pendingOffset + i != declarationOffset {
            throw error("the XML declaration <?xml …?> is only allowed at the start of the document", at: i, p)
        }
        return close + 2
    }

    mutating func declaration(_ p: UnsafePointer<UInt8>, at i: Int, count n: Int) throws(InputError) -> Int? {
        if Self.hasPrefix("<!--", p, i, n) {
            (sectionLine, sectionColumn) = position(at: i, p)
            mode = .comment
            return i + 4
        }
        if Self.hasPrefix("<![CDATA[", p, i, n) {
            guard !openElements.isEmpty else { throw error("a CDATA section outside the root element", at: i, p) }
            (sectionLine, sectionColumn) = position(at: i, p)
            mode = .cdata
            return i + 9
        }
        if Self.hasPrefix("<!DOCTYPE", p, i, n) { return try doctype(p, at: i, count: n) }
        if Self.hasPrefix("<!ENTITY", p, i, n) {
            throw error("entity declarations are refused: entities are never expanded", at: i, p)
        }
        for prefix: StaticString in ["<!--", "<![CDATA[", "<!DOCTYPE", "<!ENTITY"] where Self.isCutPrefix(prefix, p, i, n) {
            return nil
        }
        throw error("unexpected \"<!\": expected a comment, a CDATA section or a DOCTYPE", at: i, p)
    }

    mutating func doctype(_ p: UnsafePointer<UInt8>, at i: Int, count n: Int) throws(InputError) -> Int? {
        guard !rootSeen else { throw error("a DOCTYPE after the root element's start", at: i, p) }
        var j = i + 9
        var quote: UInt8 = 0
        while j < n {
            let c = p[j]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == 0x22 || c == 0x27 {
                quote = c
            } else if c == 0x5B {  // [
                throw error(
                    "a DOCTYPE with an internal subset (entity declarations) is refused: entities are never expanded or fetched",
                    at: i, p)
            } else if c == 0x3E {
                return j + 1
            }
            j += 1
        }
        return nil
    }

    /// Reads the byte order mark and the XML declaration's encoding from ``pending`` and transcodes what
    /// follows. Returns `false` while more bytes are needed to decide.
    mutating func resolveProlog(final: Bool) throws(InputError) -> Bool {
        let count = pending.count
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if count < 3 && !final && pending.elementsEqual(byteOrderMark.prefix(count)) { return false }
        if count >= 2 {
            let (first, second) = (pending[0], pending[1])
            if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) || (first == 0x3C && second == 0)
                || (first == 0 && second == 0x3C)
            {
                throw InputError("the file is UTF-16, which is not supported: save it as UTF-8", line: 1, column: 1)
            }
        }
        let start = count >= 3 && pending[0..<3].elementsEqual(byteOrderMark) ? 3 : 0
        var index = start
        while index < count && Self.isSpace(pending[index]) { index += 1 }
        let opening = Array("<?xml".utf8)
        let rest = pending[index...]
        let isDeclaration: Bool
        if rest.count > opening.count {
            let next = pending[index + opening.count]
            isDeclaration = rest.starts(with: opening) && (Self.isSpace(next) || next == 0x3F)
        } else if !final && count <= maxTokenLength && opening.starts(with: rest) {
            return false  // only whitespace or the start of "<?xml" so far
        } else {
            isDeclaration = false
        }

        var declarationEnd = index
        var declared = XMLEncoding.utf8
        if isDeclaration {
            var close = index + opening.count
            while close + 1 < count && !(pending[close] == 0x3F && pending[close + 1] == 0x3E) { close += 1 }
            // The same limit whether the "?>" is in this chunk or not (the earliest it can start is at `count - 1`),
            // so that chunking never changes the result.
            guard close + 1 < count, close - index <= Self.maxDeclarationLength else {
                if final || count - 1 - index > Self.maxDeclarationLength {
                    throw prologError(
                        "the XML declaration is not closed with \"?>\" within \(Self.maxDeclarationLength) bytes",
                        at: index, from: start)
                }
                return false
            }
            declarationEnd = close + 2
            if let name = Self.pseudoAttribute("encoding", in: pending[index..<declarationEnd]) {
                do {
                    declared = try XMLEncoding(declaredName: name)
                } catch {
                    var located = prologError(error.message, at: index, from: start)
                    located.field = error.field
                    throw located
                }
            }
            declarationOffset = index - start
        }
        encoding = declared
        if encoding == .latin1 {
            pending = Array(pending[start..<declarationEnd]) + XMLEncoding.utf8(fromLatin1: pending[declarationEnd...])
        } else if start > 0 {
            pending.removeFirst(start)
        }
        mode = .content
        return true
    }

    /// An error in the prolog, where only ASCII whitespace can precede `index`.
    func prologError(_ message: String, at index: Int, from start: Int) -> InputError {
        var line = 1
        var lineStart = start
        for k in start..<index where pending[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return InputError(message, line: line, column: index - lineStart + 1)
    }

    /// The value of a pseudo-attribute (`encoding="…"`) of the XML declaration.
    static func pseudoAttribute(_ name: String, in declaration: ArraySlice<UInt8>) -> String? {
        let key = Array(name.utf8)
        var index = declaration.startIndex
        while index + key.count <= declaration.endIndex {
            if declaration[index..<(index + key.count)].elementsEqual(key) {
                var j = index + key.count
                while j < declaration.endIndex && isSpace(declaration[j]) { j += 1 }
                guard j < declaration.endIndex, declaration[j] == 0x3D else { return nil }
                j += 1
                while j < declaration.endIndex && isSpace(declaration[j]) { j += 1 }
                guard j < declaration.endIndex, declaration[j] == 0x22 || declaration[j] == 0x27 else { return nil }
                let quote = declaration[j]
                guard let close = declaration[(j + 1)...].firstIndex(of: quote) else { return nil }
                return String(decoding: declaration[(j + 1)..<close], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }
}
