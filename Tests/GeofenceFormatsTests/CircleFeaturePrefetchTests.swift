import Foundation
import Testing

@testable import GeofenceFormats
import GeofenceKit

/// The circle features read ahead on several threads are those the decoder would read itself, at the same places,
/// and the decoder's regions, warnings and errors do not depend on them.
@Suite struct CircleFeaturePrefetchTests {
    /// A regions file built to trip a part looking for its first feature: line feeds and CRLF inside features,
    /// non-ASCII text, braces and feature-like text inside strings, polygons, and features the shortcut declines.
    /// Returns the bytes and where each feature starts.
    private func awkwardFile(features count: Int) -> (bytes: [UInt8], starts: [Int]) {
        var text = "{\"type\":\"FeatureCollection\",\"name\":\"{\\\"type\\\":\\\"Feature\\\"}\",\"features\":[\n"
        var starts: [Int] = []
        for index in 0..<count {
            if index > 0 { text += index % 7 == 0 ? " ,\r\n  " : ",\n" }
            starts.append(text.utf8.count)
            let point = "{\"type\":\"Point\",\"coordinates\":[\(Double(index % 360) - 179.5),\(Double(index % 170) / 2)]}"
            switch index % 5 {
            case 0:
                text += "{\"type\":\"Feature\",\"id\":\"c-\(index)\",\"properties\":{\"radius\":\(index % 900 + 1),"
                    + "\"devices\":[\"dév-\(index % 13)\"]},\"geometry\":\(point)}"
            case 1:
                text += "{\"type\":\"Feature\",\n  \"id\":\"é{\(index)},{\",\n  \"properties\":{\"radius\":12.5},\n"
                    + "  \"geometry\":\(point)}"
            case 2:
                text += "{\"type\":\"Feature\",\"id\":\(index),\"properties\":{\"radius\":3,\"name\":\"},{\\\"type\\\":"
                    + "\\\"Feature\\\"\"},\"geometry\":\(point)}"
            case 3:
                text += "{\"type\":\"Feature\",\"id\":\"p-\(index)\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","
                    + "\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}}"
            default:
                text += "{\"geometry\":\(point),\"type\":\"Feature\",\"properties\":{\"id\":\"ü\(index)\",\"radius\":7}}"
            }
        }
        text += "\n]}\n"
        return (Array(text.utf8), starts)
    }

    private func summary(_ region: Region) -> String {
        "\(region.id) \(region.geometry) \(String(describing: region.devices)) \(region.notifyOnEntry)"
    }

    /// Decodes `bytes` with `prefetch` (built over them), giving regions, warnings and the error, as text.
    private func decode(
        _ bytes: [UInt8], prefetch: (UnsafeBufferPointer<UInt8>) -> CircleFeaturePrefetch?
    ) -> (regions: [String], warnings: [String], error: String?) {
        bytes.withUnsafeBufferPointer { buffer in
            var regions: [String] = []
            var warnings: [InputError] = []
            var failure: String?
            do throws(InputError) {
                try GeoJSONRegionDecoder.forEachRegion(in: buffer, prefetch: prefetch(buffer), warnings: &warnings) {
                    regions.append(summary($0))
                }
            } catch {
                failure = "\(error.line ?? 0):\(error.column ?? 0) \(error.field ?? "") \(error.message)"
            }
            return (regions, warnings.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.message)" }, failure)
        }
    }

    @Test func readsEveryCircleFeatureWhereTheDecoderWouldWithTheSameLinesAndColumns() throws {
        let (bytes, starts) = awkwardFile(features: 400)
        try bytes.withUnsafeBufferPointer { buffer in
            var prefetch = try #require(CircleFeaturePrefetch(buffer, parts: 3, partLength: 997, minimumBytes: 0))
            var taken = 0
            for (index, start) in starts.enumerated() {
                var alone = JSONScanner(buffer)
                alone.offset = start
                alone.line = 10
                alone.lineStart = start - 4
                alone.continuationBytes = 1
                var ahead = alone
                let expected = CircleFeatureShortcut.read(&alone)
                // Takes one feature: the run stops at the next one, which is refused.
                var read: [Region] = []
                let count = prefetch.takeRun(
                    from: &ahead,
                    admits: { id, hash in
                        #expect(hash == FeatureIdentifiers.hash(id))
                        return read.isEmpty
                    }
                ) { region in read.append(region) }
                #expect(count == read.count)
                #expect(read.isEmpty == (expected == nil), "feature \(index)")
                guard let feature = read.first, let expected else { continue }
                taken += 1
                #expect(summary(feature) == summary(expected))
                #expect(ahead.offset == alone.offset)
                #expect(ahead.line == alone.line)
                #expect(ahead.column == alone.column, "feature \(index)")
            }
            prefetch.finish()
            #expect(taken == 240)  // all but the polygons and the features with a `name`
        }
    }

    @Test func decodesAsTheDecoderAloneDoes() {
        let (bytes, _) = awkwardFile(features: 300)
        let alone = decode(bytes) { _ in nil }
        #expect(alone.regions.count == 300)
        #expect(alone.error == nil)
        for parts in [2, 3, 5] {
            let ahead = decode(bytes) { CircleFeaturePrefetch($0, parts: parts, partLength: 1500, minimumBytes: 0) }
            #expect(ahead.regions == alone.regions)
            #expect(ahead.warnings == alone.warnings)
            #expect(ahead.error == nil)
        }
    }

    /// Circle features only, so that the decoder takes them in long runs, with line feeds, CRLF, spaces and
    /// non-ASCII text between and inside them, and `ending` after the last one.
    private func circlesFile(features count: Int, ending: String) -> [UInt8] {
        var text = "{\"type\":\"FeatureCollection\",\"features\":[ "
        for index in 0..<count {
            if index > 0 { text += [",", ",\n", " ,\r\n\t", "\n,\n\n  "][index % 4] }
            let separator = index % 3 == 0 ? "\n  " : ""
            text += "{\"type\":\"Feature\",\(separator)\"id\":\"ç-\(index)\",\"properties\":{\"radius\":\(index % 50 + 1),"
                + "\"devices\":[\"dév-\(index / 20)\"]},\(separator)\"geometry\":{\"type\":\"Point\","
                + "\"coordinates\":[\(Double(index % 360) - 179.5),\(Double(index % 170) / 2)]}}"
        }
        return Array((text + ending).utf8)
    }

    @Test(arguments: [
        "\n]}\n",  // no error
        " ,\n ]}",  // a trailing comma: an error just after the run
        "  \n  ]  \n x",  // text after the collection
        ",\n{\"type\":\"Feature\",\"id\":\"ç-3\",\"properties\":{\"radius\":2},\"geometry\":{\"type\":\"Point\","
            + "\"coordinates\":[1,2]}}]}",  // a duplicate id after the run
    ])
    func takesLongRunsWithTheDecodersLinesAndColumns(ending: String) {
        let bytes = circlesFile(features: 2_000, ending: ending)
        let alone = decode(bytes) { _ in nil }
        for (parts, partLength) in [(2, 4_096), (3, 65_536), (2, 1 << 20)] {
            let ahead = decode(bytes) { CircleFeaturePrefetch($0, parts: parts, partLength: partLength, minimumBytes: 0) }
            #expect(ahead.regions == alone.regions)
            #expect(ahead.error == alone.error)
        }
        #expect(alone.regions.count >= 2_000)
        #expect((alone.error == nil) == (ending == "\n]}\n"))
    }

    @Test(arguments: [
        ("\"id\":\"c-200\"", "\"id\":\"c-100\""),  // a duplicate id, reported by the tree path
        ("\"radius\":201", "\"radius\":-201"),  // an invalid radius
        ("\"id\":\"c-250\"", "\"id\":\"c-250\",\"id\":\"x\""),  // a duplicate key
        ("\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}}", "\"coordinates\":[[[0,0],[1,0],[1,1]]]}}"),  // warned
        ("\"id\":\"c-280\"", "\"id\":\"c-280\" x"),  // not JSON
    ])
    func reportsTheSameErrorsAndWarnings(original: String, damaged: String) throws {
        let (bytes, _) = awkwardFile(features: 300)
        let text = try #require(String(validating: bytes, as: UTF8.self))
        let range = try #require(text.range(of: original))
        let broken = Array(text.replacingCharacters(in: range, with: damaged).utf8)
        let alone = decode(broken) { _ in nil }
        #expect(alone.error != nil || !alone.warnings.isEmpty)
        let ahead = decode(broken) { CircleFeaturePrefetch($0, parts: 2, partLength: 1100, minimumBytes: 0) }
        #expect(ahead.regions == alone.regions)
        #expect(ahead.warnings == alone.warnings)
        #expect(ahead.error == alone.error)
    }
}
