import TestSupport
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// The plain-shape reader of ISO-8601 times (``Timestamp/parsePlainISO8601(_:at:count:)``) against the general
/// one it stands in for (``Timestamp/parseGeneralISO8601(_:)``): on random times and their mutations, a time the
/// plain reader reads is the general reader's value, one the general reader rejects the plain reader rejects too,
/// and a time of the plain shape (`T`, `.` and `Z`, at most nine fraction digits) is never left to the general
/// reader. ``Timestamp/parseISO8601(_:)-(UnsafeBufferPointer<UInt8>)`` gives the general reader's value or error.
@Suite struct TimestampPlainISO8601Tests {
    /// What the plain reader gives for the whole of `text` (`nil` also when it stops before the end).
    static func plain(_ text: [UInt8]) -> Timestamp? {
        text.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress,
                let (time, end) = Timestamp.parsePlainISO8601(base, at: 0, count: buffer.count), end == buffer.count
            else { return nil }
            return time
        }
    }

    static func general(_ text: [UInt8]) -> Result<Timestamp, InputError> {
        text.withUnsafeBufferPointer { buffer in
            do throws(InputError) { return .success(try Timestamp.parseGeneralISO8601(buffer)) } catch {
                return .failure(error)
            }
        }
    }

    static func combined(_ text: [UInt8]) -> Result<Timestamp, InputError> {
        text.withUnsafeBufferPointer { buffer in
            do throws(InputError) { return .success(try Timestamp.parseISO8601(buffer)) } catch {
                return .failure(error)
            }
        }
    }

    /// Whether `text` has the plain shape: `YYYY-MM-DDThh:mm:ss`, an optional `.` and 1 to 9 digits, then `Z`.
    static func hasPlainShape(_ text: [UInt8]) -> Bool {
        let digitPositions = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard text.count >= 20, text.last == UInt8(ascii: "Z"),
            digitPositions.allSatisfy({ Timestamp.isDigit(text[$0]) }),
            [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")].allSatisfy({ text[$0.0] == UInt8(ascii: $0.1) })
        else { return false }
        if text.count == 20 { return true }
        let fraction = text[20..<text.count - 1]
        return text[19] == UInt8(ascii: ".") && fraction.count >= 1 && fraction.count <= 9
            && fraction.allSatisfy(Timestamp.isDigit)
    }

    /// How the readers disagree on `text`: empty when they agree.
    static func disagreements(_ text: [UInt8]) -> [String] {
        let general = Self.general(text)
        let shown = String(decoding: text, as: UTF8.self)
        var found: [String] = []
        if let plain = Self.plain(text) {
            if general != .success(plain) { found.append("\(shown): plain \(plain), general \(general)") }
        } else if case .success = general, hasPlainShape(text) {
            found.append("\(shown): the plain reader left it to the general one")
        }
        if combined(text) != general { found.append("\(shown): parseISO8601 \(combined(text)), general \(general)") }
        // Followed by more text (as in `<time>…</time>`), the plain reader reads a time up to its `Z`, as the
        // general reader reads those bytes alone.
        var followed = text
        followed.append(contentsOf: "</time>".utf8)
        let prefix = followed.withUnsafeBufferPointer { buffer in
            Timestamp.parsePlainISO8601(buffer.baseAddress!, at: 0, count: buffer.count)
        }
        if let (time, end) = prefix, Self.general(Array(followed[..<end])) != .success(time) {
            found.append("\(shown) followed by </time>: plain \(time) up to \(end)")
        }
        return found
    }

    /// A random time of years 0000–9999 written in the plain shape, leap days and second 60 included.
    static func randomTime(_ rng: inout SplitMix64) -> String {
        func pad(_ value: UInt64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let year = [rng.next() % 10_000, 2_000, 1_900, 2_024, 2_023, 0, 9_999][Int(rng.next() % 7)]
        let month = rng.next() % 12 + 1
        let day = rng.next() % 4 == 0 ? 29 : rng.next() % 31 + 1
        let second = rng.next() % 8 == 0 ? 60 : rng.next() % 60
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(rng.next() % 24, 2)):\(pad(rng.next() % 60, 2))"
        text += ":\(pad(second, 2))"
        let digits = Int(rng.next() % 13)
        if digits > 0 { text += "." + (0..<digits).map { _ in String(rng.next() % 10) }.joined() }
        return text + "Z"
    }

    /// Ways real and broken feeds differ from the plain shape.
    static func mutations(of text: String, _ rng: inout SplitMix64) -> [[UInt8]] {
        let bytes = Array(text.utf8)
        var mutated: [[UInt8]] = [bytes]
        let withoutZ = Array(bytes.dropLast())
        for suffix in ["+08:00", "-05:30", "+0800", "z", "", "+24:00", "Zjunk", "Z ", " Z", "ZZ", ".Z"] {
            mutated.append(withoutZ + Array(suffix.utf8))
        }
        var lower = bytes
        lower[10] = UInt8(ascii: "t")
        mutated.append(lower)
        var spaced = bytes
        spaced[10] = UInt8(ascii: " ")
        mutated.append(spaced)
        if bytes.count > 20 {
            var comma = bytes
            comma[19] = UInt8(ascii: ",")
            mutated.append(comma)
        }
        // Fields out of range: month 00 and 13, day 00 and 32, hour 24, minute 60, second 61 and 99.
        for (position, value) in [(5, "00"), (5, "13"), (8, "00"), (8, "32"), (11, "24"), (14, "60"), (17, "61"), (17, "99")] {
            var field = bytes
            field.replaceSubrange(position..<position + 2, with: Array(value.utf8))
            mutated.append(field)
        }
        // A byte replaced, dropped or doubled anywhere, and the text cut anywhere.
        for _ in 0..<6 {
            let position = Int(rng.next() % UInt64(bytes.count))
            var replaced = bytes
            replaced[position] = Array("0123456789-:.TZ+ xé".utf8)[Int(rng.next() % 20)]
            mutated.append(replaced)
            var dropped = bytes
            dropped.remove(at: position)
            mutated.append(dropped)
            var doubled = bytes
            doubled.insert(bytes[position], at: position)
            mutated.append(doubled)
            mutated.append(Array(bytes[..<position]))
        }
        return mutated
    }

    @Test func plainTimesReadAsTheGeneralReaderReadsThem() async throws {
        let found = try await inBackground {
            var rng = SplitMix64(seed: 2_026)
            var found: [String] = []
            for _ in 0..<2_000 {
                let text = Self.randomTime(&rng)
                for mutated in Self.mutations(of: text, &rng) { found += Self.disagreements(mutated) }
            }
            return found
        }
        #expect(found.isEmpty, "\(found.count) disagreements: \(found.prefix(10))")
    }

    @Test(arguments: [
        "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T23:59:60Z",
        "2016-12-31T23:59:60.9999995Z", "9999-12-31T23:59:60Z", "9999-12-31T23:59:59.9999995Z", "0000-01-01T00:00:00Z",
        "2026-11-21T08:00:42.123456789Z", "2026-11-21T08:00:42.1234567891Z", "2026-11-21T08:00:42.Z",
        "2026-11-21T08:00:42Z\u{0}", "2026-11-21T08:00:42.5", "2026-11-21T08:00:42", "2026-11-21T08:00:4Z",
    ])
    func edgeCasesAgree(text: String) {
        #expect(Self.disagreements(Array(text.utf8)) == [])
    }
}
