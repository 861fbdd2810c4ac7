#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last one-device list a reader of circle features built, and where its name was in the file.
///
/// A fleet's regions file lists each device's regions together (twenty features in a row naming `device-0`), so
/// the next feature usually names the same device: it then shares the array already built instead of allocating
/// one of its own (an allocation, a `String` and their release for every region of the file). The arrays are
/// values, so sharing one changes nothing for their users.
struct DeviceListCache {
    /// The bytes of the cached name in the file being read (without quotes or escapes); empty when none is.
    private var name: Range<Int> = 0..<0
    private var devices: [String] = []

    /// `[name]` for the unescaped name at `span` of `scanner`'s bytes: the cached array when it names the same
    /// bytes, else a new one, which is cached in its place.
    mutating func list(naming span: Range<Int>, in scanner: JSONScanner) -> [String] {
        if span.count == name.count, !name.isEmpty, let base = scanner.bytes.baseAddress,
            memcmp(base + span.lowerBound, base + name.lowerBound, span.count) == 0
        {
            return devices
        }
        devices = [scanner.string(of: JSONScanner.StringToken(span: span, hasEscapes: false))]
        name = span
        return devices
    }
}
