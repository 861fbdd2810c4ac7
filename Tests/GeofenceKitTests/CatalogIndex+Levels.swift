@testable import GeofenceKit

extension CatalogIndex {
    /// The boxes of each level, as arrays of their own (a copy; the index keeps them in one array).
    var levels: [[Box]] { (0..<levelCount).map { Array(boxes[boxRange(ofLevel: $0)]) } }
}
