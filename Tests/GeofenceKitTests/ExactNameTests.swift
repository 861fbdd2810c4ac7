import Testing

import GeofenceKit

/// Identifiers are equal when their UTF-8 bytes are, whatever their length or normalisation.
@Suite struct ExactNameTests {
    @Test(arguments: [
        ("bus-17", "bus-17", true), ("bus-17", "bus-18", false), ("bus-17", "bus-170", false), ("", "", true),
        ("caf\u{E9}", "cafe\u{301}", false), ("caf\u{E9}", "caf\u{E9}", true),
        ("a-device-name-longer-than-fifteen-bytes", "a-device-name-longer-than-fifteen-bytes", true),
        ("a-device-name-longer-than-fifteen-bytes", "a-device-name-longer-than-fifteen-bytez", false),
    ])
    func equalExactlyWhenTheBytesAre(left: String, right: String, equal: Bool) {
        #expect((ExactName(left) == ExactName(right)) == equal)
        if equal { #expect(ExactName(left).hashValue == ExactName(right).hashValue) }
        var set: Set<ExactName> = [ExactName(left)]
        set.insert(ExactName(right))
        #expect(set.count == (equal ? 1 : 2))
    }

    /// A bridged or substring-made string may have no contiguous bytes: it still compares by its bytes.
    @Test func stringsMadeFromSlicesCompareByTheirBytes() {
        let text = "xx-bus-17-yy"
        let slice = String(text.dropFirst(3).dropLast(3))
        #expect(ExactName(slice) == ExactName("bus-17"))
        #expect(ExactName(slice) != ExactName("bus-18"))
    }
}
