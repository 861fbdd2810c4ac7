import Foundation
import GeofenceKit
import Testing
@testable import location_router

/// The option table: a flag and its config.json key accept the same values, refuse the same values, and the help
/// page and README list every flag.
struct RunOptionTableTests {
    /// A valid value of each option that has both a flag and a key: as typed after the flag, and as JSON.
    static let sameValue: [(flag: String, text: String, json: String)] = [
        ("--source", "stdin:csv", #""stdin:csv""#),
        ("--regions", "zones.geojson", #""zones.geojson""#),
        ("--devices", "250", "250"),
        ("--duration", "90.5", "90.5"),
        ("--interval", "0.25", "0.25"),
        ("--speed", "12", "12"),
        ("--sample-distance", "40", "40"),
        ("--stagger", "0", "0"),
        ("--time-jitter", "3", "3"),
        ("--position-jitter", "7.5", "7.5"),
        ("--distance-filter", "25", "25"),
        ("--significant-change", "", "true"),
        ("--accuracy", "15", "15"),
        ("--profile", "android", #""android""#),
        ("--initial-trigger", "enter,dwell", #""enter,dwell""#),
        ("--buffer", "30", "30"),
        ("--confirmation", "12", "12"),
        ("--loitering-delay", "120", "120"),
        ("--authorization", "always=0.5,whenInUse=0.3,denied=0.2", #"{"always":0.5,"whenInUse":0.3,"denied":0.2}"#),
        ("--compare-profiles", "ios,android", #"["ios","android"]"#),
        ("--selection", "nearest", #""nearest""#),
        ("--refresh-distance", "250", "250"),
        ("--refresh-interval", "60", "60"),
        ("--proximity-radius", "3000", "3000"),
        ("--coverage", "", "true"),
        ("--delivery", "lognormal:180,300", #"{"distribution":"lognormal","median":180,"p95":300}"#),
        ("--polygons", "enclosingCircle", #""enclosingCircle""#),
        ("--visits", "", "true"),
        ("--stops", "0.3,600", #"{"share":0.3,"meanLength":600}"#),
        ("--events", "-", #""-""#),
        ("--webhook", "http://127.0.0.1:9/hook", #""http://127.0.0.1:9/hook""#),
        ("--dead-letter", "dead.ndjson", #""dead.ndjson""#),
        ("--report", "out.json", #""out.json""#),
        ("--state", "state.bin", #""state.bin""#),
        ("--snapshot-interval", "5", "5"),
        ("--seed", "18446744073709551615", "18446744073709551615"),
        ("--pace", "2.5", "2.5"),
        ("--shards", "3", "3"),
        ("--on-bad-input", "fail", #""fail""#),
        ("--threshold", "dropped == 0", #"["dropped == 0"]"#),
        ("--quiet", "", "true"),
        ("--partition", "2/8", #""2/8""#),
    ]

    /// A refused value of an option with a flag and a key, as typed and as JSON.
    static let refused: [(flag: String, text: String, json: String)] = [
        ("--source", "carrier-pigeon", #""carrier-pigeon""#),
        ("--devices", "0", "0"),
        ("--devices", "100000001", "100000001"),
        ("--duration", "31622401", "31622401"),
        ("--interval", "0", "0"),
        ("--interval", "86401", "86401"),
        ("--speed", "1001", "1001"),
        ("--sample-distance", "0", "0"),
        ("--stagger", "-1", "-1"),
        ("--time-jitter", "31622401", "31622401"),
        ("--position-jitter", "1000001", "1000001"),
        ("--distance-filter", "-3", "-3"),
        ("--accuracy", "100001", "100001"),
        ("--profile", "symbian", #""symbian""#),
        ("--initial-trigger", "sometimes", #""sometimes""#),
        ("--buffer", "100001", "100001"),
        ("--confirmation", "86401", "86401"),
        ("--loitering-delay", "-1", "-1"),
        ("--authorization", "always=2", #"{"always":2}"#),
        ("--compare-profiles", "ios,symbian", #"["ios","symbian"]"#),
        ("--selection", "closest", #""closest""#),
        ("--refresh-distance", "0", "0"),
        ("--refresh-interval", "-1", "-1"),
        ("--proximity-radius", "20000001", "20000001"),
        ("--delivery", "lognormal:300,180", #"{"distribution":"lognormal","median":300,"p95":180}"#),
        ("--delivery", "soon", #""soon""#),
        ("--polygons", "hexagon", #""hexagon""#),
        ("--stops", "2", #"{"share":2}"#),
        ("--webhook", "ftp://127.0.0.1/hook", #""ftp://127.0.0.1/hook""#),
        ("--snapshot-interval", "86401", "86401"),
        ("--seed", "-1", "-1"),
        ("--pace", "0", "0"),
        ("--shards", "-1", "-1"),
        ("--shards", "1025", "1025"),
        ("--on-bad-input", "ignore", #""ignore""#),
        ("--threshold", "nonsense < 1", #"["nonsense < 1"]"#),
        ("--partition", "4/4", #""4/4""#),
    ]

    /// `{"a":{"b":VALUE}}` for key `a.b`.
    static func config(_ key: String, _ json: String) -> [UInt8] {
        let parts = key.split(separator: ".")
        let text = parts.reversed().reduce(json) { inner, part in "{\"\(part)\":\(inner)}" }
        return Array(text.utf8)
    }

    static func option(_ flag: String) throws -> RunOption {
        try #require(RunOption.named(flag), "no option \(flag)")
    }

    static func fromFlag(_ flag: String, _ text: String) throws(CommandError) -> Scenario {
        var scenario = Scenario()
        var arguments = Arguments(RunOption.named(flag)?.placeholder == nil ? [flag] : [flag, text])
        try scenario.apply(arguments: &arguments)
        return scenario
    }

    static func fromConfig(_ key: String, _ json: String) throws(InputError) -> Scenario {
        var scenario = Scenario()
        try scenario.apply(configJSON: config(key, json))
        return scenario
    }

    @Test func everyOptionWithAFlagAndAKeyIsTested() {
        let both = RunOption.all.filter { $0.flag != nil && $0.key != nil && $0.applyArguments != nil }.compactMap(\.flag)
        #expect(Set(both) == Set(Self.sameValue.map(\.flag)))
    }

    @Test(arguments: sameValue)
    func aFlagAndItsKeyGiveTheSameScenario(flag: String, text: String, json: String) throws {
        let key = try #require(try Self.option(flag).key)
        let viaFlag = try Self.fromFlag(flag, text)
        let viaConfig = try Self.fromConfig(key, json)
        #expect(viaFlag == viaConfig)
        #expect(viaFlag != Scenario() || flag == "--stagger", "the value must differ from the default to test anything")
    }

    @Test(arguments: refused)
    func aFlagAndItsKeyRefuseTheSameValue(flag: String, text: String, json: String) throws {
        let option = try Self.option(flag)
        let key = try #require(option.key)
        #expect(throws: CommandError.self) { try Self.fromFlag(flag, text) }
        do {
            _ = try Self.fromConfig(key, json)
            Issue.record("config.json accepted \(key): \(json)")
        } catch {
            #expect(error.description.contains(key.split(separator: ".").last.map(String.init) ?? key))
        }
        do {
            _ = try Self.fromFlag(flag, text)
        } catch {
            #expect(error.code == .usage)
            #expect(error.message.contains("'\(text)' is invalid for '\(flag) <"))
        }
    }

    @Test func zeroShardsMeansOnePerCoreFromTheFlagAndTheKey() throws {
        #expect(try Self.fromFlag("--shards", "0").shards == nil)
        #expect(try Self.fromConfig("pipeline.shards", "0").shards == nil)
        #expect(try Self.fromFlag("--shards", "8").shards == 8)
    }

    @Test func theHelpPageListsEveryFlagOnceInTableOrder() {
        let help = HelpText.run
        var position = help.startIndex
        for option in RunOption.all {
            guard let flag = option.flag else { continue }
            let synopsis = "  " + [flag, option.placeholder].compactMap { $0 }.joined(separator: " ") + " "
            guard let found = help.range(of: synopsis, range: position..<help.endIndex) else {
                Issue.record("\(flag) missing from 'run --help' or out of order")
                continue
            }
            position = found.upperBound
        }
    }

    @Test func theREADMEDocumentsEveryFlag() throws {
        let readme = try String(contentsOfFile: projectRoot + "/README.md", encoding: .utf8)
        for flag in RunOption.all.compactMap(\.flag) {
            #expect(readme.contains("`\(flag)"), "README lacks \(flag)")
        }
    }

    @Test func keysAreUniqueAndFlagsAreUnique() {
        let keys = RunOption.all.compactMap(\.key)
        let flags = RunOption.all.compactMap(\.flag)
        #expect(Set(keys).count == keys.count)
        #expect(Set(flags).count == flags.count)
    }
}
