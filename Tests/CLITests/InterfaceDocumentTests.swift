import Foundation
import TestSupport
import Testing
@testable import location_router

/// `docs/interfaces.md` is the list of names users script against; it must name every option, config key and
/// report key the code has, so that nothing reaches users without being written down as a contract.
@Suite struct InterfaceDocumentTests {
    static func document() throws -> String {
        try String(contentsOfFile: projectRoot + "/docs/interfaces.md", encoding: .utf8)
    }

    @Test func everyFlagAndConfigKeyIsNamed() throws {
        let document = try Self.document()
        for option in RunOption.all {
            if let flag = option.flag { #expect(document.contains("`\(flag)`"), "docs/interfaces.md lacks \(flag)") }
            // Keys of one object's members are written under their object (`sinks.webhook.url`, with `linger`…).
            if let key = option.key {
                let last = key.split(separator: ".").last.map(String.init) ?? key
                #expect(
                    document.contains("`\(key)") || document.contains("`\(last)`"), "docs/interfaces.md lacks \(key)")
            }
        }
    }

    @Test func everyKeyOfAReportIsNamed() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await runCommand(
            ["run", "--devices", "20", "--duration", "30", "--no-events", "--report", folder + "/report.json",
             "--threshold", "dropped == 0", "--state", folder + "/state.ndjson", "--quiet"])
        #expect(run.status == .success, "\(run.err)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json")))
                as? [String: Any])
        let document = try Self.document()
        #expect(report.count > 30)
        for key in report.keys {
            #expect(document.contains("`\(key)`"), "docs/interfaces.md lacks the report key \(key)")
        }
    }
}
