import Testing

@testable import GeofenceFormats
import GeofenceKit

@Suite struct JSONParserTests {
    private func parseError(_ text: String) -> InputError? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    private func parseError(_ bytes: [UInt8]) -> InputError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesEveryKindWithItsLineAndColumn() throws {
        let text = """
            {
              "a": [1, -2.5e3, true, false, null],
              "b": {"c": "d"}
            }
            """
        let root = try JSONParser.parse(text)
        #expect(root.line == 1 && root.column == 1)
        let array = try #require(root["a"])
        #expect(array.line == 2 && array.column == 8)
        #expect(try array.array(path: "a").count == 5)
        #expect(array[0]?.kind == .number(1, text: "1"))
        #expect(array[1]?.kind == .number(-2500, text: "-2.5e3"))
        #expect(array[1]?.column == 12)
        #expect(array[2]?.kind == .bool(true))
        #expect(array[3]?.kind == .bool(false))
        #expect(array[4]?.isNull == true)
        #expect(array[5] == nil)
        let nested = try #require(root["b"]?["c"])
        #expect(nested.kind == .string("d"))
        #expect(nested.line == 3 && nested.column == 14)
    }

    @Test func keepsTheOrderOfKeys() throws {
        let root = try JSONParser.parse(#"{"z": 1, "a": 2, "m": 3}"#)
        #expect(try root.members(path: "").map(\.key) == ["z", "a", "m"])
    }

    static let strings: [(String, String)] = [
        (#""plain""#, "plain"),
        (#""caf\u00e9 é""#, "café é"),
        (#""\ud83d\ude00""#, "😀"),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""a\u0000b""#, "a\u{0}b"),
        (#""""#, ""),
    ]

    @Test(arguments: strings)
    func decodesStringEscapes(json: String, expected: String) throws {
        #expect(try JSONParser.parse(json).kind == .string(expected))
    }

    static let numbers: [(String, Double)] = [
        ("0", 0), ("-0", -0.0), ("25.0478", 25.0478), ("121.5170", 121.517), ("0.1", 0.1),
        ("121.51701234567891", 121.51701234567891), ("1e22", 1e22), ("1e23", 1e23), ("5e-324", .leastNonzeroMagnitude),
        ("12345678901234567890", 12_345_678_901_234_567_168), ("0.000001", 0.000001), ("1.7976931348623157e308", .greatestFiniteMagnitude),
    ]

    @Test(arguments: numbers)
    func convertsNumbersToTheNearestDouble(text: String, expected: Double) throws {
        let value = try JSONParser.parse(text)
        #expect(value.kind == .number(expected, text: text))
        #expect(try value.number(path: "n").bitPattern == expected.bitPattern)
    }

    @Test func rejectsNumbersTooLargeForADoubleWhenReadAsNumbers() throws {
        let value = try JSONParser.parse(#"{"x": 1e999}"#)
        #expect(value["x"]?.kind == .number(.infinity, text: "1e999"))
        #expect(throws: InputError("1e999 is too large for a number", line: 1, column: 7, field: "x")) {
            try value["x"]?.number(path: "x")
        }
    }

    static let syntaxErrors: [(String, Int, Int, String)] = [
        ("", 1, 1, "empty input"),
        ("  \n ", 2, 2, "empty input"),
        ("[1,]", 1, 4, "expected a value"),
        ("{\"a\":1,}", 1, 8, "expected a key in quotes"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        ("{} x", 1, 4, "expected the end of the input"),
        ("[01]", 1, 2, "leading zeros"),
        ("[1.]", 1, 4, "a digit after the decimal point"),
        ("[-]", 1, 3, "expected a digit"),
        ("[1e+]", 1, 5, "a digit in the exponent"),
        ("[NaN]", 1, 2, "expected a value"),
        ("[nul]", 1, 2, "expected a value"),
        ("[nullx]", 1, 2, "expected a value"),
        ("\"abc", 1, 5, "unterminated string"),
        ("\"a\tb\"", 1, 3, "control character 0x9"),
        ("\"a\nb\"", 1, 3, "unterminated string"),
        ("\"\\x\"", 1, 2, "invalid escape"),
        ("\"\\u12G4\"", 1, 2, "four hex digits"),
        ("\"\\ud83d\"", 1, 2, "unpaired surrogate"),
        ("\"\\ude00\"", 1, 2, "unpaired surrogate"),
        ("\"\\ud83d\\u0041\"", 1, 2, "unpaired surrogate"),
        ("{\"é\": x}", 1, 7, "expected a value"),
        ("{\n  \"a\": 1,\n  \"a\": 2\n}", 3, 3, "duplicate key \"a\" (first at line 2, column 3)"),
        ("// comment\n{}", 1, 1, "expected a value"),
    ]

    @Test(arguments: syntaxErrors)
    func reportsSyntaxErrorsWithLineAndColumn(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func rejectsInvalidUTF8InStrings() throws {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82]] {
            let error = try #require(parseError(bytes))
            #expect(error.message.contains("invalid UTF-8"))
        }
    }

    @Test func skipsAByteOrderMark() throws {
        let value = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": x}"#.utf8).prefix(6) + Array("1}".utf8))
        #expect(value["a"]?.kind == .number(1, text: "1"))
        #expect(value["a"]?.column == 7)
    }

    @Test func limitsNestingInsteadOfOverflowingTheStack() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(parseError(tooDeep)?.message == "nesting is deeper than 512 levels")
        let hostile = String(repeating: "[{\"a\":", count: 50_000)
        #expect(parseError(hostile)?.message.contains("nesting") == true)
    }

    @Test func detectsDuplicateKeysInLargeObjects() throws {
        let members = (0..<40).map { "\"k\($0)\": \($0)" } + ["\"k17\": 0"]
        let error = try #require(parseError("{" + members.joined(separator: ",") + "}"))
        #expect(error.message.hasPrefix("duplicate key \"k17\""))
    }

    // MARK: Typed access

    @Test func typeErrorsNameTheKeyPath() throws {
        let root = try JSONParser.parse(#"{"source": {"speed": {"max": "fast"}}}"#)
        let max = try #require(root["source"]?["speed"]?["max"])
        let error = InputError("expected a number, found a string", line: 1, column: 30, field: "source.speed.max")
        #expect(throws: error) { try max.number(path: "source.speed.max") }
        #expect(error.description == "line 1:30: source.speed.max: expected a number, found a string")
        #expect(throws: InputError.self) { try max.bool(path: "x") }
        #expect(throws: InputError.self) { try max.array(path: "x") }
        #expect(throws: InputError.self) { try max.members(path: "x") }
        #expect(try max.string(path: "x") == "fast")
    }

    @Test(arguments: [("3", 3), ("-7", -7), ("2e3", 2000), ("4.0", 4)])
    func readsIntegers(text: String, expected: Int) throws {
        #expect(try JSONParser.parse(text).integer(path: "n") == expected)
    }

    @Test(arguments: ["2.5", "1e300", "\"3\""])
    func rejectsNonIntegers(text: String) throws {
        #expect(throws: InputError.self) { try JSONParser.parse(text).integer(path: "n") }
    }

    @Test func checkKeysRejectsUnknownKeysAtTheKeyWithASuggestion() throws {
        let root = try JSONParser.parse("{\n  \"radius\": 1,\n  \"radious\": 2\n}")
        #expect(throws: Never.self) { try root.checkKeys(allowed: ["radius", "radious"], path: "") }
        #expect {
            try root.checkKeys(allowed: ["radius", "center"], path: "region")
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.field == "region.radious" && error.line == 3 && error.column == 3
                && error.message == "unknown key (did you mean \"radius\"?); expected one of: center, radius"
        }
    }

    @Test func objectReaderReportsUnreadKeysAndTreatsNullAsAbsent() throws {
        let root = try JSONParser.parse(#"{"seed": 7, "quiet": null, "source": {"maxSpeed": 12, "maxSpeeed": 3}}"#)
        var reader = try JSONObjectReader(root, path: "")
        #expect(try reader.integer("seed") == 7)
        #expect(try reader.bool("quiet") == nil)
        #expect(try reader.string("missing") == nil)
        var source = try #require(try reader.object("source"))
        #expect(try source.number("maxSpeed") == 12)
        #expect(source.unreadKeys == ["maxSpeeed"])
        #expect {
            try source.finish()
        } throws: { error in
            (error as? InputError)?.field == "source.maxSpeeed"
                && (error as? InputError)?.message.contains("did you mean \"maxSpeed\"") == true
        }
        #expect(throws: Never.self) { try reader.finish() }
        #expect(throws: InputError("missing", line: 1, column: 1, field: "profile")) {
            try reader.requiredValue("profile")
        }
        #expect(reader.error("must be > 0", key: "seed") == InputError("must be > 0", line: 1, column: 10, field: "seed"))
        #expect(throws: InputError("expected an object, found an array", line: 1, column: 1, field: "list")) {
            try JSONObjectReader(try JSONParser.parse("[]"), path: "list")
        }
    }
}
