import GeofenceKit
import GeofenceFormats

/// Text helpers of the report page: XML escaping, number formats, and typed reads of the report's JSON.
enum PageText {
    /// `text` escaped for XHTML element content and attribute values.
    ///
    /// Text holding a bidirectional formatting character (a right-to-left override U+202E in a device's name, say)
    /// is enclosed in a first-strong isolate (U+2068 … U+2069): shown as it is, but its overrides end with it
    /// instead of reversing the text after it (a tooltip's ": fired 3×", the rest of a table's row).
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        let isolated = text.unicodeScalars.contains(where: isBidirectionalFormatting)
        if isolated { result.unicodeScalars.append("\u{2068}") }
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                // Control characters are not allowed in XML 1.0.
                if character.value < 0x20, character != "\n", character != "\t" { result += "\u{FFFD}" } else {
                    result.unicodeScalars.append(character)
                }
            }
        }
        if isolated { result.unicodeScalars.append("\u{2069}") }
        return result
    }

    /// The embeddings, overrides, isolates and marks of the Unicode bidirectional algorithm.
    static func isBidirectionalFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `1,234,567`.
    static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let whole = Int64(value.rounded())
        let digits = String(whole.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (whole < 0 ? "−" : "") + out
    }

    /// At most `decimals` decimals, trailing zeros removed.
    static func decimal(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return grouped(rounded) }
        return String(rounded)
    }

    /// Short axis labels: `950`, `12k`, `3.4M`, `0.25`.
    static func compact(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e9 { return decimal(value / 1e9, 1) + "G" }
        if magnitude >= 1e6 { return decimal(value / 1e6, 1) + "M" }
        if magnitude >= 1e4 { return decimal(value / 1e3, 1) + "k" }
        if magnitude >= 10 || magnitude == 0 { return decimal(value, 0) }
        if magnitude >= 1 { return decimal(value, 1) }
        return decimal(value, 3)
    }

    /// A duration in seconds as `45 s`, `12 min`, `3.5 h`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 120 { return decimal(seconds, 1) + " s" }
        if seconds < 7200 { return decimal(seconds / 60, 1) + " min" }
        return decimal(seconds / 3600, 1) + " h"
    }
}

extension JSONValue {
    /// The value as a number, when it is one.
    var doubleValue: Double? {
        if case .number(let value, _) = kind { return value }
        return nil
    }
    var stringValue: String? {
        if case .string(let value) = kind { return value }
        return nil
    }
    var boolValue: Bool? {
        if case .bool(let value) = kind { return value }
        return nil
    }
    /// The elements of an array (empty for anything else).
    var items: [JSONValue] {
        if case .array(let values) = kind { return values }
        return []
    }
    /// The members of an object (empty for anything else).
    var pairs: [Member] {
        if case .object(let members) = kind { return members }
        return []
    }
    /// An array of numbers, `nil` entries for `null`s and non-numbers.
    var numbers: [Double?] { items.map(\.doubleValue) }
    /// The number at `key`, 0 when absent.
    func number(_ key: String) -> Double { self[key]?.doubleValue ?? 0 }
}
