import Testing

@testable import GeofenceFormats
import GeofenceKit

@Suite struct SampleDecoderTests {
    private static let eight = Timestamp(microseconds: 1_795_248_000_000_000)  // 2026-11-21T08:00:00Z

    private func ndjson(_ line: String, lineNumber: Int = 42) throws(SampleDecodingError) -> LocationSample {
        try SampleDecoder.decodeNDJSON(line: ArraySlice(line.utf8), lineNumber: lineNumber)
    }

    private func ndjsonError(_ line: String) -> SampleDecodingError? {
        do {
            _ = try ndjson(line)
            return nil
        } catch {
            return error
        }
    }

    private func csv(_ line: String, header: String = "device,lat,lon,time,accuracy") throws -> LocationSample {
        try SampleDecoder.decodeCSV(line: ArraySlice(line.utf8), header: CSVSampleHeader(header), lineNumber: 42)
    }

    private func csvError(_ line: String, header: String = "device,lat,lon,time,accuracy") throws -> SampleDecodingError? {
        let header = try CSVSampleHeader(header)
        do {
            _ = try SampleDecoder.decodeCSV(line: ArraySlice(line.utf8), header: header, lineNumber: 42)
            return nil
        } catch {
            return error
        }
    }

    // MARK: NDJSON

    static let goodNDJSON: [(String, String, Double, Double, Int64, Double?)] = [
        (#"{"device":"bus-17","lat":25.0478,"lon":121.5170,"time":"2026-11-21T08:00:00Z"}"#,
         "bus-17", 25.0478, 121.517, 0, nil),
        (#"{"device":"bus-17","lat":25.0481,"lon":121.5175,"time":1795248001.5,"accuracy":12}"#,
         "bus-17", 25.0481, 121.5175, 1_500_000, 12),
        (#"  { "time" : "2026-11-21T16:00:00.25+08:00" , "lon": -0.5, "lat": -90, "device": "é-1" }  "#,
         "é-1", -90, -0.5, 250_000, nil),
        (#"{"device":17,"lat":0,"lon":180,"time":1.795248e9,"accuracy":null,"speed":{"v":[1,2,{"x":null}]},"note":"a\"b"}"#,
         "17", 0, 180, 0, nil),
        (#"{"dev\u0069ce":"b\u00fcs","lat":1e1,"lon":2.5E-1,"time":"2026-11-21 08:00:00z","accuracy":0}"#,
         "büs", 10, 0.25, 0, 0),
        ("{\"device\":\"x\",\"lat\":1,\"lon\":2,\"time\":\"2026-11-21T08:00:00Z\"}\r", "x", 1, 2, 0, nil),
    ]

    @Test(arguments: goodNDJSON)
    func decodesNDJSONLines(line: String, device: String, lat: Double, lon: Double, offset: Int64, accuracy: Double?)
        throws
    {
        let sample = try ndjson(line)
        #expect(sample.device == device)
        #expect(sample.coordinate == Coordinate(unchecked: lat, lon))
        #expect(sample.time.microseconds == Self.eight.microseconds + offset)
        #expect(sample.accuracy == accuracy)
    }

    @Test func acceptsAByteOrderMarkOnTheFirstLine() throws {
        let line = [0xEF, 0xBB, 0xBF] + Array(#"{"device":"a","lat":1,"lon":2,"time":0}"#.utf8)
        #expect(try SampleDecoder.decodeNDJSON(line: line[...], lineNumber: 1).device == "a")
    }

    static let badNDJSON: [(line: String, reason: SampleRejection, field: String?, column: Int?, message: String)] = [
        ("[1,2]", .malformed, nil, 1, "expected a JSON object"),
        (#"{"device":"a","lat":1,"lon":2,"time":0"#, .malformed, nil, 39, "expected ',' or '}'"),
        (#"{"device":"a","lat":1,"lon":2,"time":0} x"#, .malformed, nil, 41, "end of the line"),
        (#"{"device":"a","lat":1,"lat":2,"lon":2,"time":0}"#, .malformed, nil, 23, "duplicate key \"lat\""),
        (#"{"device":"a","x":1,"x":2,"lat":1,"lon":2,"time":0}"#, .malformed, nil, 21, "duplicate key \"x\""),
        (#"{"device":"a","lat":01,"lon":2,"time":0}"#, .malformed, nil, 21, "leading zeros"),
        (#"{"device":"a","lat":NaN,"lon":2,"time":0}"#, .malformed, nil, 21, "expected a value"),
        (#"{"device":"a","lat":1,"lon":2,"time":0,}"#, .malformed, nil, 40, "a key in quotes"),
        (#"{"device":true,"lat":1,"lon":2,"time":0}"#, .malformed, "device", 11, "expected a string, found a boolean"),
        (#"{"device":1.5,"lat":1,"lon":2,"time":0}"#, .malformed, "device", 11, "expected a string or an integer"),
        (#"{"lat":1,"lon":2,"time":0}"#, .missingField, "device", nil, "missing"),
        (#"{"device":null,"lat":1,"lon":2,"time":0}"#, .missingField, "device", nil, "missing"),
        (#"{"device":"","lat":1,"lon":2,"time":0}"#, .missingField, "device", 11, "must not be empty"),
        (#"{"device":"a","lon":2,"time":0}"#, .missingField, "lat", nil, "missing"),
        (#"{"device":"a","lat":1,"time":0}"#, .missingField, "lon", nil, "missing"),
        (#"{"device":"a","lat":1,"lon":2}"#, .missingField, "time", nil, "missing"),
        (#"{"device":"a","lat":91,"lon":2,"time":0}"#, .invalidCoordinate, "lat", 21, "lat 91.0 is out of range"),
        (#"{"device":"a","lat":1,"lon":-180.5,"time":0}"#, .invalidCoordinate, "lon", 29, "out of range"),
        (#"{"device":"a","lat":1e999,"lon":2,"time":0}"#, .invalidCoordinate, "lat", 21, "finite"),
        (#"{"device":"a","lat":"25.1","lon":2,"time":0}"#, .invalidCoordinate, "lat", 21, "expected a number, found a string"),
        (#"{"device":"a","lat":1,"lon":[2],"time":0}"#, .invalidCoordinate, "lon", 29, "found an array"),
        (#"{"device":"a","lat":1,"lon":2,"time":"2026-02-30T00:00:00Z"}"#, .invalidTime, "time", 38, "day 30"),
        (#"{"device":"a","lat":1,"lon":2,"time":"2026-11-21T08:00:00"}"#, .invalidTime, "time", 38, "no time zone"),
        (#"{"device":"a","lat":1,"lon":2,"time":"yesterday"}"#, .invalidTime, "time", 38, "not an ISO-8601 time"),
        (#"{"device":"a","lat":1,"lon":2,"time":1795248000000}"#, .invalidTime, "time", 38, "milliseconds"),
        (#"{"device":"a","lat":1,"lon":2,"time":false}"#, .invalidTime, "time", 38, "found a boolean"),
        (#"{"device":"a","lat":1,"lon":2,"time":0,"accuracy":-1}"#, .invalidAccuracy, "accuracy", 51, "≥ 0"),
        (#"{"device":"a","lat":1,"lon":2,"time":0,"accuracy":"5"}"#, .invalidAccuracy, "accuracy", 51, "found a string"),
        (#"{"device":"é","lat":91,"lon":2,"time":0}"#, .invalidCoordinate, "lat", 21, "out of range"),
    ]

    @Test(arguments: badNDJSON)
    func rejectsBadNDJSONLinesNamingReasonLineAndField(
        line: String, reason: SampleRejection, field: String?, column: Int?, message: String
    ) throws {
        let error = try #require(ndjsonError(line))
        #expect(error.reason == reason)
        #expect(error.error.line == 42)
        #expect(error.error.field == field)
        #expect(error.error.column == column)
        #expect(error.error.message.contains(message), "\(error.error.message)")
    }

    // MARK: CSV

    @Test func mapsHeaderColumnsByNameInAnyOrder() throws {
        let header = try CSVSampleHeader(" Time ,speed,LON,\"lat\",device\r")
        #expect(header.timeColumn == 0 && header.longitudeColumn == 2 && header.latitudeColumn == 3)
        #expect(header.deviceColumn == 4 && header.accuracyColumn == nil)
        let line = ArraySlice("2026-11-21T08:00:00Z,30,121.5,25,bus".utf8)
        let sample = try SampleDecoder.decodeCSV(line: line, header: header, lineNumber: 2)
        #expect(sample.device == "bus" && sample.coordinate == Coordinate(unchecked: 25, 121.5))
        #expect(sample.time == Self.eight)
    }

    static let badHeaders: [(String, SampleRejection, String?, String)] = [
        ("device,lat,time", .missingField, "lon", "no \"lon\" column"),
        ("bus-17,25.0,121.5,2026-11-21T08:00:00Z", .missingField, "device", "no \"device\" column"),
        ("device,lat,lon,time,Lat", .malformed, "lat", "appears twice"),
        ("device,\"lat,lon,time", .malformed, nil, "unterminated quoted field"),
    ]

    @Test(arguments: badHeaders)
    func rejectsHeadersWithoutTheRequiredColumns(header: String, reason: SampleRejection, field: String?, message: String) {
        #expect {
            try CSVSampleHeader(header, lineNumber: 1)
        } throws: { error in
            guard let error = error as? SampleDecodingError else { return false }
            return error.reason == reason && error.error.field == field && error.error.line == 1
                && error.error.message.contains(message)
        }
    }

    static let goodCSV: [(String, String, Double, Double, Int64, Double?)] = [
        ("bus-17,25.0478,121.5170,2026-11-21T08:00:00Z,", "bus-17", 25.0478, 121.517, 0, nil),
        ("bus-17,25.0481,121.5175,1795248001.5,12", "bus-17", 25.0481, 121.5175, 1_500_000, 12),
        (" bus 17 , +25 , -0.5 , 2026-11-21T16:00:00+08:00 , 0 ", "bus 17", 25, -0.5, 0, 0),
        ("\"bus, \"\"17\"\"\",1,2,1795248000", "bus, \"17\"", 1, 2, 0, nil),
        ("\"x\" ,1,2,1795248000\r", "x", 1, 2, 0, nil),
        ("x,1,2,1795248000", "x", 1, 2, 0, nil),
        ("17,1e1,2.5E-1,1.795248e9,3.5", "17", 10, 0.25, 0, 3.5),
    ]

    @Test(arguments: goodCSV)
    func decodesCSVRows(line: String, device: String, lat: Double, lon: Double, offset: Int64, accuracy: Double?) throws {
        let sample = try csv(line)
        #expect(sample.device == device)
        #expect(sample.coordinate == Coordinate(unchecked: lat, lon))
        #expect(sample.time.microseconds == Self.eight.microseconds + offset)
        #expect(sample.accuracy == accuracy)
    }

    static let badCSV: [(line: String, reason: SampleRejection, field: String?, column: Int?, message: String)] = [
        ("a,1,2,0,5,extra", .malformed, nil, 11, "more fields than the header's 5 columns"),
        ("\"a,1,2,0", .malformed, nil, 1, "unterminated quoted field"),
        ("\"a\"b,1,2,0", .malformed, nil, 4, "after a quoted field"),
        ("a\"b,1,2,0", .malformed, nil, 2, "quote inside an unquoted field"),
        (",1,2,0", .missingField, "device", 1, "missing"),
        ("a,,2,0", .missingField, "lat", 3, "missing"),
        ("a,1,2", .missingField, "time", nil, "missing"),
        ("a,abc,2,0", .invalidCoordinate, "lat", 3, "\"abc\" is not a number"),
        ("a,NaN,2,0", .invalidCoordinate, "lat", 3, "is not a number"),
        ("é,95,2,0", .invalidCoordinate, "lat", 3, "lat 95.0 is out of range"),
        ("a,1,200,0", .invalidCoordinate, "lon", 5, "out of range"),
        ("a,1,2,2026-11-21T25:00:00Z", .invalidTime, "time", 7, "hour 25"),
        ("a,1,2,soon", .invalidTime, "time", 7, "\"soon\" is neither an ISO-8601 time"),
        ("a,1,2,21/11/2026 08:00:01", .invalidTime, "time", 7, "nor a number of Unix seconds"),
        ("a,1,2,0,-1", .invalidAccuracy, "accuracy", 9, "≥ 0"),
        ("a,1,2,0,inf", .invalidAccuracy, "accuracy", 9, "is not a number"),
    ]

    @Test(arguments: badCSV)
    func rejectsBadCSVRowsNamingReasonLineAndField(
        line: String, reason: SampleRejection, field: String?, column: Int?, message: String
    ) throws {
        let error = try #require(try csvError(line))
        #expect(error.reason == reason)
        #expect(error.error.line == 42)
        #expect(error.error.field == field)
        #expect(error.error.column == column)
        #expect(error.error.message.contains(message), "\(error.error.message)")
    }

    // MARK: Format and blank lines

    @Test(arguments: [
        ("{\"device\":\"a\"}", SampleFormat.ndjson), ("  \t{", .ndjson), ("\u{FEFF}{", .ndjson),
        ("device,lat,lon,time", .csv), ("\u{FEFF}device,lat", .csv), ("", .csv),
    ])
    func detectsTheFormatFromTheFirstLine(line: String, format: SampleFormat) {
        #expect(SampleFormat.detect(firstLine: ArraySlice(line.utf8)) == format)
    }

    @Test(arguments: [("", true), ("  \t\r", true), ("\u{FEFF} ", true), (" x ", false), ("{}", false)])
    func recognisesBlankLines(line: String, blank: Bool) {
        #expect(SampleDecoder.isBlank(ArraySlice(line.utf8)) == blank)
    }

    @Test func keepsTheReasonNamesThatReportsUseAsKeys() {
        #expect(SampleRejection.allCases.map(\.rawValue) == [
            "malformed", "missingField", "invalidCoordinate", "invalidTime", "invalidAccuracy", "lineTooLong",
            "outOfOrder", "tooManyDevices",
        ])
    }

    @Test func decodesLinesFromAnUnsafeBufferToo() throws {
        let bytes = Array("x\n{\"device\":\"a\",\"lat\":1,\"lon\":2,\"time\":0}\n".utf8)
        let sample = try bytes.withUnsafeBufferPointer { buffer in
            try SampleDecoder.decodeNDJSON(line: UnsafeBufferPointer(rebasing: buffer[2..<(bytes.count - 1)]), lineNumber: 2)
        }
        #expect(sample.device == "a" && sample.time == Timestamp(microseconds: 0))
    }
}
