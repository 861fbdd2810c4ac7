import Foundation
import GeofenceKit
import Testing
@testable import LocationRouter

/// An event of `kind` for device `d` and region `r` at `t` seconds after 2026-11-21T08:00:00Z.
private func event(_ d: Int32, _ r: Int32, _ kind: EventKind, _ t: Double, code: Int32 = 0) -> GeofenceEvent {
    GeofenceEvent(
        device: d, region: r, kind: kind, time: Timestamp(seconds: 1_795_248_000 + t), latitude: 25.03, longitude: 121.56,
        failure: kind == .failed ? .tooManyRegions : nil, code: code
    )
}

/// Device 1 crosses regions 0…4 in turn: enter at 1000·r + 100, exit 300 s later.
private let crossings: [GeofenceEvent] = (0..<5).flatMap { r -> [GeofenceEvent] in
    let start = 1000 * Double(r) + 100
    return [event(1, Int32(r), .enter, start), event(1, Int32(r), .exit, start + 300)]
}

/// The same events, each moved by `shift(event)` seconds, in reverse order (input order must not matter).
private func shifted(_ events: [GeofenceEvent], _ shift: (GeofenceEvent) -> Double) -> [GeofenceEvent] {
    events.map { e in
        var e = e
        e.time = e.time.adding(seconds: shift(e))
        return e
    }.reversed()
}

private struct Expected: Sendable, Equatable, CustomStringConvertible {
    var matched = 0, missed = 0, added = 0, delayed = 0, early = 0
    var p50: Double? = nil, max: Double? = nil, min: Double? = nil

    init(matched: Int = 0, missed: Int = 0, added: Int = 0, delayed: Int = 0, early: Int = 0,
         p50: Double? = nil, max: Double? = nil, min: Double? = nil) {
        (self.matched, self.missed, self.added, self.delayed, self.early) = (matched, missed, added, delayed, early)
        (self.p50, self.max, self.min) = (p50, max, min)
    }

    /// What `tally` shows of the fields `expected` gives (delay statistics it leaves `nil` are not compared).
    init(_ tally: ProfileComparison.Tally, as expected: Expected) {
        self.init(matched: tally.matched, missed: tally.missed, added: tally.added, delayed: tally.delayed, early: tally.early)
        if expected.p50 != nil { p50 = tally.delays.p50 }
        if expected.max != nil { max = tally.delays.max }
        if expected.min != nil { min = tally.delays.min }
    }

    var description: String {
        func text(_ value: Double?) -> String { value.map { "\($0)" } ?? "-" }
        let counts = "matched \(matched) missed \(missed) added \(added) delayed \(delayed) early \(early)"
        return counts + " p50 \(text(p50)) max \(text(max)) min \(text(min))"
    }
}

private struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var baseline: [GeofenceEvent]
    var profile: [GeofenceEvent]
    var window: Double = 600
    /// Per kind (and `nil` for the total); kinds not listed must have no events at all. Delay statistics are
    /// checked where the expectation gives them.
    var expected: [EventKind?: Expected]

    var testDescription: String { name }
}

private let cases: [Case] = [
    Case(
        name: "identical lists: all matched, no delay",
        baseline: crossings, profile: shifted(crossings) { _ in 0 },
        expected: [
            .enter: Expected(matched: 5, p50: 0, max: 0, min: 0),
            .exit: Expected(matched: 5, p50: 0, max: 0, min: 0),
            nil: Expected(matched: 10, p50: 0, max: 0, min: 0),
        ]
    ),
    Case(
        name: "every enter 20 s late: enters 100 % delayed, p50 20 s",
        baseline: crossings, profile: shifted(crossings) { $0.kind == .enter ? 20 : 0 },
        expected: [
            .enter: Expected(matched: 5, delayed: 5, p50: 20, max: 20, min: 20),
            .exit: Expected(matched: 5, p50: 0, max: 0, min: 0),
            nil: Expected(matched: 10, delayed: 5, p50: 0, max: 20, min: 0),
        ]
    ),
    Case(
        name: "a missed graze (enter and exit of one region): 2 missed",
        baseline: crossings, profile: crossings.filter { $0.region != 2 },
        expected: [
            .enter: Expected(matched: 4, missed: 1),
            .exit: Expected(matched: 4, missed: 1),
            nil: Expected(matched: 8, missed: 2),
        ]
    ),
    Case(
        name: "an added dwell: 1 added",
        baseline: crossings, profile: crossings + [event(1, 3, .dwell, 3200)],
        expected: [
            .enter: Expected(matched: 5),
            .exit: Expected(matched: 5),
            .dwell: Expected(added: 1),
            nil: Expected(matched: 10, added: 1),
        ]
    ),
    Case(
        name: "an enter later than the window: missed and added",
        baseline: crossings, profile: shifted(crossings) { $0.kind == .enter && $0.region == 4 ? 601 : 0 },
        expected: [
            .enter: Expected(matched: 4, missed: 1, added: 1, p50: 0, max: 0),
            .exit: Expected(matched: 5),
            nil: Expected(matched: 9, missed: 1, added: 1),
        ]
    ),
    Case(
        name: "an enter exactly at the window's edge still matches",
        baseline: crossings, profile: shifted(crossings) { $0.kind == .enter && $0.region == 4 ? 600 : 0 },
        expected: [
            .enter: Expected(matched: 5, delayed: 1, p50: 0, max: 600, min: 0),
            .exit: Expected(matched: 5),
            nil: Expected(matched: 10, delayed: 1),
        ]
    ),
    Case(
        name: "a shorter window: 20 s late with a 10 s window is missed and added",
        baseline: crossings, profile: shifted(crossings) { $0.kind == .enter ? 20 : 0 }, window: 10,
        expected: [
            .enter: Expected(matched: 0, missed: 5, added: 5),
            .exit: Expected(matched: 5),
            nil: Expected(matched: 5, missed: 5, added: 5),
        ]
    ),
    Case(
        name: "other devices, regions and kinds at the same time are not cross-matched",
        baseline: [event(1, 0, .enter, 100), event(2, 1, .enter, 100), event(3, 3, .exit, 100)],
        profile: [
            event(0, 1, .enter, 110), event(1, 1, .enter, 110), event(2, 0, .enter, 110), // swapped device / region
            event(3, 3, .enter, 110), event(3, 3, .dwell, 110), // same key, other kinds
            event(2, 1, .enter, 130), // the one true match, 30 s late
        ],
        expected: [
            .enter: Expected(matched: 1, missed: 1, added: 4, delayed: 1, p50: 30, max: 30, min: 30),
            .exit: Expected(missed: 1),
            .dwell: Expected(added: 1),
            nil: Expected(matched: 1, missed: 2, added: 5, delayed: 1),
        ]
    ),
    Case(
        name: "negative device and region ids keep their own keys",
        baseline: [event(-1, 0, .enter, 100), event(0, -1, .enter, 100)],
        profile: [event(-1, 0, .enter, 105), event(0, -1, .enter, 107)],
        expected: [
            .enter: Expected(matched: 2, delayed: 2, p50: 5, max: 7, min: 5),
            nil: Expected(matched: 2, delayed: 2),
        ]
    ),
    Case(
        name: "an early report: matched as early, negative delay",
        baseline: crossings, profile: shifted(crossings) { $0.kind == .exit && $0.region == 1 ? -30 : 0 },
        expected: [
            .enter: Expected(matched: 5),
            .exit: Expected(matched: 5, early: 1, p50: 0, max: 0, min: -30),
            nil: Expected(matched: 10, early: 1, p50: 0, max: 0, min: -30),
        ]
    ),
    Case(
        name: "earlier than the window: missed and added",
        baseline: crossings, profile: shifted(crossings) { $0.kind == .exit && $0.region == 1 ? -601 : 0 },
        expected: [
            .enter: Expected(matched: 5),
            .exit: Expected(matched: 4, missed: 1, added: 1),
            nil: Expected(matched: 9, missed: 1, added: 1),
        ]
    ),
    Case(
        name: "a late report wins over an early one for the same baseline event",
        baseline: [event(1, 0, .enter, 100)],
        profile: [event(1, 0, .enter, 90), event(1, 0, .enter, 105)],
        expected: [
            .enter: Expected(matched: 1, added: 1, delayed: 1, p50: 5, max: 5, min: 5),
            nil: Expected(matched: 1, added: 1, delayed: 1),
        ]
    ),
    Case(
        name: "repeated transitions of one key pair in order (earliest unmatched first)",
        baseline: [event(1, 0, .enter, 0), event(1, 0, .enter, 500), event(1, 0, .enter, 2000)],
        profile: [event(1, 0, .enter, 550), event(1, 0, .enter, 700), event(1, 0, .enter, 1990)],
        expected: [
            .enter: Expected(matched: 3, delayed: 2, early: 1, p50: 200, max: 550, min: -10),
            nil: Expected(matched: 3, delayed: 2, early: 1),
        ]
    ),
    Case(
        name: "empty profile: everything missed",
        baseline: crossings, profile: [],
        expected: [
            .enter: Expected(missed: 5),
            .exit: Expected(missed: 5),
            nil: Expected(missed: 10),
        ]
    ),
    Case(
        name: "empty baseline: everything added",
        baseline: [], profile: crossings,
        expected: [
            .enter: Expected(added: 5),
            .exit: Expected(added: 5),
            nil: Expected(added: 10),
        ]
    ),
]

/// (Over 300 lines for one reason: the table of cases above reads beside the private fixtures it is built from.)
@Suite struct ProfileComparisonTests {
    @Test(arguments: cases)
    fileprivate func matching(_ c: Case) {
        let comparison = ProfileComparison(baseline: c.baseline, profile: c.profile, name: "test", matchWindow: c.window)
        for kind in [EventKind.enter, .exit, .dwell, nil] {
            let tally = kind.map { comparison.tally($0)! } ?? comparison.total
            let expected = c.expected[kind] ?? Expected()
            #expect(Expected(tally, as: expected) == expected, "\(kind.map(String.init(describing:)) ?? "total")")
            #expect(tally.baseline == tally.matched + tally.missed)
            #expect(tally.profile == tally.matched + tally.added)
            if tally.matched == 0 { #expect(tally.delays == .init()) }
        }
        #expect(comparison.total.baseline == c.baseline.count)
        #expect(comparison.total.profile == c.profile.count)
    }

    @Test func delayStatisticsAreExactNearestRank() {
        // Ten enters of ten regions, delays 1…10 s: p50 5, p90 9, p99 10, mean 5.5.
        let baseline = (0..<10).map { event(1, Int32($0), .enter, 100) }
        let profile = (0..<10).map { event(1, Int32($0), .enter, 101 + Double($0)) }
        let delays = ProfileComparison(baseline: baseline, profile: profile, name: "p").enter.delays
        #expect(delays == .init(mean: 5.5, min: 1, p50: 5, p90: 9, p99: 10, max: 10))
    }

    @Test func stateAndFailedAreCountedByCode() {
        let baseline = [event(1, 0, .state, 0), event(1, 1, .state, 0), event(1, 2, .failed, 0, code: 5)]
        let profile = [event(1, 0, .state, 3), event(1, 2, .failed, 0, code: 1001), event(1, 3, .failed, 0, code: 1001)]
        let comparison = ProfileComparison(baseline: baseline, profile: profile, name: "android")
        #expect(comparison.state == .init(baseline: 2, profile: 1))
        #expect(comparison.failed == .init(baseline: 1, profile: 2))
        #expect(comparison.failedByCode == [.init(code: 5, baseline: 1, profile: 0), .init(code: 1001, baseline: 0, profile: 2)])
        #expect(comparison.total == ProfileComparison.Tally())
    }

    @Test func compareKeepsTheProfilesOrderAndTheTableHasOneBlockEach() {
        let late = shifted(crossings) { $0.kind == .enter ? 20 : 0 }
        let comparisons = ProfileComparison.compare(
            baseline: crossings,
            profiles: [(name: "ios", events: late), (name: "android", events: crossings.filter { $0.region != 2 })],
            matchWindow: 600
        )
        #expect(comparisons.map(\.profile) == ["ios", "android"])
        let lines = ProfileComparison.table(comparisons).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("Profiles vs exact (match window 600 s): missed = exact reported it, the profile did not;"))
        #expect(lines[1].split(separator: " ") == ["profile", "kind", "exact", "profile", "matched", "missed", "added",
                                                    "delayed", "early", "p50", "p90", "p99", "max", "mean"])
        #expect(lines[2].split(separator: " ") == ["ios", "enter", "5", "5", "5", "0", "0", "5", "0", "20", "20", "20", "20", "20"])
        #expect(lines[5].split(separator: " ") == ["total", "10", "10", "10", "0", "0", "5", "0", "0", "20", "20", "20", "10"])
        #expect(lines[8].split(separator: " ") == ["android", "enter", "5", "4", "4", "1", "0", "0", "0", "0", "0", "0", "0", "0"])
        #expect(lines[10].split(separator: " ") == ["dwell", "0", "0", "0", "0", "0", "0", "0", "–", "–", "–", "–", "–"])
        #expect(lines.count == 2 + 2 * 6 + 1)
        #expect(lines.last == "")
        #expect(comparisons[0].text == ProfileComparison.table([comparisons[0]]))
    }

    @Test func jsonHasItsKeysInOrderAndParses() throws {
        let profile = shifted(crossings) { $0.kind == .enter ? 20.5 : 0 } + [event(1, 9, .failed, 0, code: 5)]
        let comparison = ProfileComparison(baseline: crossings, profile: profile, name: "ios")
        let json = comparison.json
        #expect(json.hasPrefix(#"{"profile":"ios","baseline":"exact","matchWindowSeconds":600,"enter":{"baseline":5,"profile":5,"matched":5,"missed":0,"added":0,"delayed":5,"early":0,"delaySeconds":{"mean":20.5,"min":20.5,"p50":20.5,"p90":20.5,"p99":20.5,"max":20.5}},"exit":"#))
        #expect(json.hasSuffix(#""dwell":{"baseline":0,"profile":0,"matched":0,"missed":0,"added":0,"delayed":0,"early":0,"delaySeconds":{"mean":null,"min":null,"p50":null,"p90":null,"p99":null,"max":null}},"total":{"baseline":10,"profile":10,"matched":10,"missed":0,"added":0,"delayed":5,"early":0,"delaySeconds":{"mean":10.25,"min":0,"p50":0,"p90":20.5,"p99":20.5,"max":20.5}},"state":{"baseline":0,"profile":0},"failed":{"baseline":0,"profile":1,"byCode":[{"code":5,"baseline":0,"profile":1}]},"visit":{"baseline":0,"profile":0},"delivery":{"events":0,"delaySeconds":{"mean":null,"min":null,"p50":null,"p90":null,"p99":null,"max":null}}}"# + "\n"))
        let array = try #require(try JSONSerialization.jsonObject(with: Data(ProfileComparison.json([comparison, comparison]).utf8)) as? [[String: Any]])
        #expect(array.count == 2)
    }

    @Test func largeInputIsNotQuadratic() {
        // 10,000 devices × 5 regions × (enter, exit) × 2 passes = 200,000 baseline events; the profile reports
        // each (d mod 30) s late and drops every 100th device's crossings of region 0.
        var baseline: [GeofenceEvent] = []
        var profile: [GeofenceEvent] = []
        baseline.reserveCapacity(200_000)
        for d in Int32(0)..<10_000 {
            for r in Int32(0)..<5 {
                for pass in 0..<2 {
                    let enter = Double(2000 * pass) + Double(r) * 100 + Double(d % 7)
                    for e in [event(d, r, .enter, enter), event(d, r, .exit, enter + 50)] {
                        baseline.append(e)
                        if d % 100 == 0 && r == 0 { continue }
                        var late = e
                        late.time = e.time.adding(seconds: Double(d % 30))
                        profile.append(late)
                    }
                }
            }
        }
        // Plus one key with 50,000 transitions in a row, each reported 5 s late.
        for k in 0..<50_000 {
            baseline.append(event(20_000, 0, .dwell, Double(k) * 10))
            profile.append(event(20_000, 0, .dwell, Double(k) * 10 + 5))
        }
        baseline.shuffle()
        let comparison = ProfileComparison(baseline: baseline, profile: profile.reversed(), name: "ios")
        let dropped = 100 * 2 * 2 // devices × passes × (enter, exit)
        #expect(comparison.total.baseline == 250_000)
        #expect(comparison.total.matched == 250_000 - dropped)
        #expect(comparison.total.missed == dropped)
        #expect(comparison.total.added == 0)
        #expect(comparison.enter.delays.max == 29)
        #expect(comparison.dwell.delayed == 50_000)
        #expect(comparison.dwell.delays.p99 == 5)
    }
}
