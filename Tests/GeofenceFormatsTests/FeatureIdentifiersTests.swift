import Testing

@testable import GeofenceFormats

@Suite struct FeatureIdentifiersTests {
    private func insert(_ id: String, _ feature: Int, into table: inout FeatureIdentifiers) -> Int? {
        table.insert(id, hash: FeatureIdentifiers.hash(id), feature: feature)
    }

    @Test func namesTheFirstFeatureOfADuplicateIdAcrossGrowth() {
        var table = FeatureIdentifiers(expected: 1)
        for feature in 0..<5_000 { #expect(insert("region-\(feature)", feature, into: &table) == nil) }
        #expect(insert("region-17", 5_000, into: &table) == 17)
        #expect(insert("region-4999", 5_001, into: &table) == 4_999)
        // A refused duplicate is not recorded: the first feature stays the one named.
        #expect(insert("region-17", 5_002, into: &table) == 17)
        #expect(insert("region-5000", 5_003, into: &table) == nil)
    }

    @Test func comparesIdsByteForByte() {
        var table = FeatureIdentifiers(expected: 4)
        #expect(insert("caf\u{E9}", 0, into: &table) == nil)
        // The same text decomposed is another id, as ExactName has it.
        #expect(insert("cafe\u{301}", 1, into: &table) == nil)
        #expect(insert("caf\u{E9}", 2, into: &table) == 0)
        #expect(insert("a-long-identifier-stored-outside-the-string", 3, into: &table) == nil)
        #expect(insert("a-long-identifier-stored-outside-the-string", 4, into: &table) == 3)
    }
}
