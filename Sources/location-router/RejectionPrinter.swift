import GeofenceKit
import Synchronization

/// Prints the first rejected input lines as they are found, then only counts them (the report has the totals).
final class RejectionPrinter: Sendable {
    private let console: Console
    private let printed = Mutex(0)
    static let limit = 20

    init(console: Console) { self.console = console }

    func print(_ error: InputError) {
        let count = printed.withLock { count in
            count += 1
            return count
        }
        if count <= Self.limit {
            console.err("warning: \(error)\n")
        } else if count == Self.limit + 1 {
            console.err("warning: more bad lines; they are counted in the report\n")
        }
    }
}
