#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A device or region identifier compared as the exact sequence of its Unicode scalars.
///
/// Swift's `String` equality (and hashing) uses canonical equivalence, so `café` written with U+00E9 and with
/// `e` + U+0301 are one string to a `Dictionary<String, _>`. Identifiers from other systems are opaque bytes:
/// two ids that differ only in normalisation are two devices (or two regions). Every table keyed by an
/// identifier uses this key.
public struct ExactName: Hashable, Sendable, CustomStringConvertible {
    public let string: String

    public init(_ string: String) { self.string = string }

    public var description: String { string }

    public static func == (lhs: ExactName, rhs: ExactName) -> Bool {
        // Compared as contiguous bytes when both strings have them (native strings do), which is much faster
        // than the generic element-by-element comparison that remains for the others.
        let equal: Bool? = lhs.string.utf8.withContiguousStorageIfAvailable { left in
            rhs.string.utf8.withContiguousStorageIfAvailable { right in
                guard left.count == right.count, let leftStart = left.baseAddress, let rightStart = right.baseAddress else {
                    return left.count == right.count
                }
                return memcmp(leftStart, rightStart, left.count) == 0
            }
        } ?? nil
        return equal ?? lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        let hashed: Bool? = string.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
            return true
        }
        if hashed == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
    }
}
