/// FNV-1a, 64 bits, of a text's UTF-8 bytes: a hash that is the same in every process, on every machine and in
/// every version (Swift's `Hasher` is seeded per process). What partitions split stream devices by, what the
/// target driver spreads devices over its lanes by, and what a regions file's ids are looked up by.
public enum StableHash {
    public static func fnv1a(_ text: String) -> UInt64 {
        var text = text
        // Over the contiguous bytes (which a native or small string has): iterating the UTF-8 view costs many
        // times more, and a regions file hashes every feature's id.
        return text.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
    }
}
