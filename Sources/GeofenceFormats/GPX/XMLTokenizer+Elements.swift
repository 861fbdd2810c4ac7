#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeofenceKit

// Text, start tags and end tags: the body of a document.

extension XMLTokenizer {
    /// Passes on the text from `i` up to the next `<` and returns where it stopped: at the `<`, at the end, or
    /// (when more chunks follow) before a reference that the chunk cuts, so pieces never split a reference.
    mutating func text<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, from i: Int, count n: Int, final: Bool, handler: inout Handler
    ) throws(InputError) -> Int {
        let next = Self.find(0x3C, in: p, from: i, to: n)
        var end = next ?? n
        if next == nil && !final {
            // Hold back from the first "&" whose reference the next chunk could still complete: one with no ";"
            // after it and whose window for the ";" (``XMLEntityDecoder/referenceWindow``) passes the end.
            var k = n - 1
            let limit = max(i, n - XMLEntityDecoder.referenceWindow)
            while k >= limit {
                if p[k] == 0x3B { break }  // ;
                if p[k] == 0x26 { end = k }  // &
                k -= 1
            }
        }
        guard end > i else { return end }
        if openElements.isEmpty {
            var k = i
            while k < end && Self.isSpace(p[k]) { k += 1 }
            if k < end {
                throw error(
                    rootClosed ? "text after the end of the root element"
                        : "expected \"<\": this is not an XML document (is it a GPX file?)", at: k, p)
            }
        } else {
            try handler.characters(UnsafeBufferPointer(start: p + i, count: end - i), isCDATA: false)
        }
        return end
    }

    /// Reads the markup at `i` (a `<`) and returns the offset after it, or `nil` when the chunk ends inside it.
    mutating func markup<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, at i: Int, count n: Int, handler: inout Handler
    ) throws(InputError) -> Int? {
        guard i + 1 < n else { return nil }
        switch p[i + 1] {
        case 0x2F: return try endTag(p, at: i, count: n, handler: &handler)  // </
        case 0x3F: return try processingInstruction(p, at: i, count: n)  // <?
        case 0x21: return try declaration(p, at: i, count: n)  // <!
        default: return try startTag(p, at: i, count: n, handler: &handler)
        }
    }

    mutating func startTag<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, at i: Int, count n: Int, handler: inout Handler
    ) throws(InputError) -> Int? {
        var j = i + 1
        var localNameStart = j
        while j < n {
            let c = p[j]
            if Self.endsName(c) { break }
            if c == 0x3A && localNameStart == i + 1 { localNameStart = j + 1 }  // the first colon
            j += 1
        }
        guard j < n else { return nil }
        let nameEnd = j
        guard nameEnd > i + 1 else { throw error("expected an element name after \"<\"", at: i, p) }
        if localNameStart == nameEnd { localNameStart = i + 1 }  // "a:" has no local part: use it whole
        attributeCount = 0
        var selfClosing = false
        while true {
            while j < n && Self.isSpace(p[j]) { j += 1 }
            guard j < n else { return nil }
            let c = p[j]
            if c == 0x3E {  // >
                j += 1
                break
            }
            if c == 0x2F {  // />
                guard j + 1 < n else { return nil }
                guard p[j + 1] == 0x3E else { throw error("expected \">\" after \"/\" in <\(name(p, i + 1, nameEnd))>", at: j, p) }
                j += 2
                selfClosing = true
                break
            }
            let attributeStart = j
            var attributeLocalStart = j
            while j < n {
                let c = p[j]
                if Self.endsName(c) { break }
                if c == 0x3A && attributeLocalStart == attributeStart { attributeLocalStart = j + 1 }
                j += 1
            }
            guard j < n else { return nil }
            let attributeEnd = j
            guard attributeEnd > attributeStart else {
                throw error("unexpected \"\(Self.character(p[j]))\" in <\(name(p, i + 1, nameEnd))>", at: j, p)
            }
            if attributeLocalStart == attributeEnd { attributeLocalStart = attributeStart }
            while j < n && Self.isSpace(p[j]) { j += 1 }
            guard j < n else { return nil }
            guard p[j] == 0x3D else {  // =
                throw error("attribute \(name(p, attributeStart, attributeEnd)) has no value (expected \"=\")", at: attributeStart, p)
            }
            j += 1
            while j < n && Self.isSpace(p[j]) { j += 1 }
            guard j < n else { return nil }
            let quote = p[j]
            guard quote == 0x22 || quote == 0x27 else {
                throw error("the value of attribute \(name(p, attributeStart, attributeEnd)) must be in quotes", at: j, p)
            }
            guard let close = Self.find(quote, in: p, from: j + 1, to: n) else { return nil }
            // A repeated attribute (two `lat`s on one point) is not well-formed XML, and which one counts is a guess.
            let length = attributeEnd - attributeStart
            for index in 0..<attributeCount {
                let earlier = attributes[index].name
                if earlier.count == length && Self.equalBytes(p + i + earlier.lowerBound, p + attributeStart, count: length) {
                    throw error(
                        "attribute \(name(p, attributeStart, attributeEnd)) appears twice in <\(name(p, i + 1, nameEnd))>",
                        at: attributeStart, p)
                }
            }
            let attribute = XMLStartTag.Attribute(
                name: (attributeStart - i)..<(attributeEnd - i), localNameStart: attributeLocalStart - i,
                value: (j + 1 - i)..<(close - i))
            // The array only grows, to the most attributes of one tag; a tag overwrites the previous tag's.
            if attributeCount < attributes.count {
                attributes[attributeCount] = attribute
            } else {
                attributes.append(attribute)
            }
            attributeCount += 1
            j = close + 1
        }

        if rootClosed {
            throw error("a second root element <\(name(p, i + 1, nameEnd))> after the end of the first", at: i, p)
        }
        guard openElements.count < maxDepth else {
            throw error("elements are nested more than \(maxDepth) deep", at: i, p)
        }
        let (line, column) = position(at: i, p)
        rootSeen = true
        if !selfClosing {
            openElements.append(OpenElement(nameStart: namesEnd, line: line, column: column))
            pushName(p + i + 1, count: nameEnd - i - 1)
        }
        let count = attributeCount
        try attributes.withUnsafeBufferPointer { (attributes) throws(InputError) in
            let tag = XMLStartTag(
                bytes: UnsafeBufferPointer(start: p + i, count: j - i), name: 1..<(nameEnd - i),
                localNameStart: localNameStart - i, attributes: UnsafeBufferPointer(rebasing: attributes[..<count]),
                line: line, column: column)
            try handler.startElement(tag)
        }
        if selfClosing {
            try handler.endElement()
            if openElements.isEmpty { rootClosed = true }
        }
        return j
    }

    mutating func endTag<Handler: XMLTokenHandler>(
        _ p: UnsafePointer<UInt8>, at i: Int, count n: Int, handler: inout Handler
    ) throws(InputError) -> Int? {
        var j = i + 2
        while j < n && !Self.endsName(p[j]) { j += 1 }
        let nameEnd = j
        while j < n && Self.isSpace(p[j]) { j += 1 }
        guard j < n else { return nil }
        guard p[j] == 0x3E else { throw error("expected \">\" to end </\(name(p, i + 2, nameEnd))", at: j, p) }
        guard let open = openElements.last else {
            throw error("end tag </\(name(p, i + 2, nameEnd))> without a start tag", at: i, p)
        }
        let length = nameEnd - i - 2
        let matches = namesEnd - open.nameStart == length
            && elementNames.withUnsafeBufferPointer { names in
                guard let names = names.baseAddress else { return length == 0 }
                return Self.equalBytes(names + open.nameStart, p + i + 2, count: length)
            }
        guard matches else {
            let openName = String(decoding: elementNames[open.nameStart..<namesEnd], as: UTF8.self)
            var mismatch = error(
                "end tag </\(name(p, i + 2, nameEnd))> does not match <\(openName)> (opened at line \(open.line), column \(open.column))",
                at: i, p)
            mismatch.field = openName
            throw mismatch
        }
        openElements.removeLast()
        namesEnd = open.nameStart
        if openElements.isEmpty { rootClosed = true }
        try handler.endElement()
        return j + 1
    }
}
