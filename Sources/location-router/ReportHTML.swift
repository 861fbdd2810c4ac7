import Foundation
import GeofenceKit
import LocationRouter

/// Writing the page of a JSON report (`--html PATH`), for `run`, `run --compare-profiles` and `report`: any
/// command that has a report's JSON text renders its page with one call.
enum ReportHTML {
    /// Renders the report's page and writes it to `path` (atomically for a regular file).
    /// - Throws: exit 65 when the text is not a report, 74 when the page cannot be written.
    static func write(reportJSON: String, to path: String, console: Console) throws(CommandError) {
        let page: String
        do {
            page = try ReportPage.render(reportJSON: reportJSON)
        } catch {
            throw CommandError(.invalidInput, error.description)
        }
        try Files.write(page, to: path, console: console)
    }
}
