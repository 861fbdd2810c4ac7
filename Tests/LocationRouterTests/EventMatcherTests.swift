import GeofenceKit
import Testing
@testable import LocationRouter
import GeofenceFormats

/// Matching events to the truth, one to one, and the score that follows.
@Suite struct EventMatcherTests {
    static func event(_ kind: EventKind, _ seconds: Double, device: String = "d", region: String = "r") -> ScoredEvent {
        ScoredEvent(device: device, region: region, kind: kind, time: Timestamp(seconds: 1_800_000_000 + seconds))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var truth: [ScoredEvent]
        var events: [ScoredEvent]
        var matched: Int
        var duplicates: Int = 0
        var delays: [Double] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "the same events", truth: [event(.enter, 0), event(.exit, 10)], events: [event(.enter, 0), event(.exit, 10)],
             matched: 2, delays: [0, 0]),
        Case(name: "late events within the tolerance", truth: [event(.enter, 0), event(.exit, 10)],
             events: [event(.enter, 5), event(.exit, 70)], matched: 2, delays: [5, 60]),
        Case(name: "too late", truth: [event(.enter, 0)], events: [event(.enter, 601)], matched: 0),
        Case(name: "early events do not match", truth: [event(.enter, 10)], events: [event(.enter, 9)], matched: 0),
        Case(name: "a millisecond early still matches", truth: [event(.enter, 10)], events: [event(.enter, 9.999)],
             matched: 1, delays: [-0.001]),
        Case(name: "other kind, device or region", truth: [event(.enter, 0)],
             events: [event(.exit, 0), event(.enter, 0, device: "e"), event(.enter, 0, region: "q")], matched: 0),
        Case(name: "a repeat is a duplicate", truth: [event(.enter, 0)], events: [event(.enter, 1), event(.enter, 2)],
             matched: 1, duplicates: 1, delays: [1]),
        Case(name: "earliest truth takes the earliest event", truth: [event(.enter, 0), event(.enter, 100)],
             events: [event(.enter, 101), event(.enter, 150)], matched: 2, delays: [101, 50]),
        Case(name: "a pass-through between two samples is the one missed", truth: [event(.enter, 42.5), event(.enter, 58.5)],
             events: [event(.enter, 59)], matched: 1, delays: [0.5]),
        Case(name: "each event answers the latest crossing left before it", truth: [event(.enter, 10), event(.enter, 20), event(.enter, 30)],
             events: [event(.enter, 25), event(.enter, 35)], matched: 2, delays: [5, 5]),
        Case(name: "nothing at all", truth: [], events: [], matched: 0),
    ]

    @Test(arguments: cases)
    func matching(_ test: Case) {
        let score = EventMatcher().score(truth: test.truth, events: test.events)
        #expect(score.total.truth == test.truth.count)
        #expect(score.total.events == test.events.count)
        #expect(score.total.matched == test.matched)
        #expect(score.total.missed == test.truth.count - test.matched)
        #expect(score.total.spurious == test.events.count - test.matched)
        #expect(score.total.duplicates == test.duplicates)
        #expect(score.latency.max == test.delays.max())
        #expect(score.firstMissed.count == min(20, test.truth.count - test.matched))
        #expect(score.firstSpurious.count == min(20, test.events.count - test.matched))
    }

    @Test func theCrossingsAMonitorCouldNotSeeAreTheOnesMissed() {
        // A pass-through between two samples (in at 42.25 s, out at 42.75 s), then a stay the monitor reported a
        // little late: its events answer the stay, and the pass-through is what it missed.
        let passThrough = [Self.event(.enter, 42.25), Self.event(.exit, 42.75)]
        let stay = [Self.event(.enter, 58.5), Self.event(.exit, 134)]
        let score = EventMatcher().score(
            truth: passThrough + stay, events: [Self.event(.enter, 59), Self.event(.exit, 135)])
        #expect(score.total.matched == 2)
        #expect(score.firstMissed == passThrough)
        #expect(score.latency.max == 1)
        #expect(score.latency.p50 == 0.5)
    }

    @Test func aDelayedEventAnswersTheCrossingsBeforeItsDecision() {
        // Delivered at 100 s: decided at 40 s, it answers the crossing at 10 s, not the one at 50 s it was already
        // on its way past; decided at 60 s, the one at 50 s.
        let truth = [Self.event(.enter, 10), Self.event(.enter, 50)]
        for (decided, missed) in [(40.0, truth[1]), (60.0, truth[0])] {
            var delayed = Self.event(.enter, 100)
            delayed.detectedAt = Timestamp(seconds: 1_800_000_000 + decided)
            let score = EventMatcher().score(truth: truth, events: [delayed])
            #expect(score.total.matched == 1)
            #expect(score.firstMissed == [missed], "decided at \(decided) s")
            #expect((score.detection?.max ?? -1) >= 0)
        }
    }

    @Test func recallPrecisionAndLatencyOfAKnownPerturbation() {
        // 100 crossings; the system misses every tenth, reports the rest 2 s late plus 0–0.99 s, and invents 5.
        let truth = (0..<100).map { Self.event($0 % 2 == 0 ? .enter : .exit, Double($0) * 1000, device: "d\($0 % 7)") }
        var events: [ScoredEvent] = []
        for (i, crossing) in truth.enumerated() where i % 10 != 0 {
            var late = crossing
            late.time = crossing.time.adding(seconds: 2 + Double(i) / 100)
            events.append(late)
        }
        events += (0..<5).map { Self.event(.enter, Double($0) * 1000 + 500, device: "ghost") }
        let score = EventMatcher(tolerance: 60).score(truth: truth, events: events.shuffled(), ignored: 3)
        #expect(score.total.recall == 0.9)
        #expect(score.total.precision == 90.0 / 95.0)
        #expect(score.total.missed == 10)
        #expect(score.total.spurious == 5)
        #expect(score.ignored == 3)
        #expect(score.enter.truth == 50 && score.exit.truth == 50)
        #expect(score.enter.missed + score.exit.missed == 10)
        #expect(score.latency.max == 2.99)
        #expect(score.latency.p50.map { $0 >= 2.4 && $0 <= 2.6 } == true)
        #expect(score.firstMissed.first == truth[0])
        #expect(score.value(at: "recall") == 0.9)
        #expect(score.value(at: "latencySeconds.max") == 2.99)
        #expect(score.value(at: "byKind.enter.truth") == 50)
        #expect(score.value(at: "nonsense") == nil)
        #expect(score.json.contains(#""recall":0.9,"precision":0.947368,"missed":10,"spurious":5"#))
    }

    @Test func eventFilesAreNDJSONOrAJSONArray() throws {
        let ndjson = """
            {"device":"a","region":"r","event":"enter","time":"2026-11-21T08:00:00.5Z","lat":1,"lon":2}

            {"device":17,"region":4,"event":"exit","time":1795248001.25}
            {"device":"a","region":"r","event":"dwell","time":"2026-11-21T08:00:00Z"}
            """
        let contents = try EventFileReader.read(Array(ndjson.utf8))
        #expect(contents.events == [
            ScoredEvent(device: "a", region: "r", kind: .enter, time: try Timestamp.parseISO8601("2026-11-21T08:00:00.5Z")),
            ScoredEvent(device: "17", region: "4", kind: .exit, time: Timestamp(microseconds: 1_795_248_001_250_000)),
        ])
        #expect(contents.ignored == 1)
        let array = try EventFileReader.read(Array(#" [{"device":"a","region":"r","event":"exit","time":5}]"#.utf8))
        #expect(array.events.map(\.kind) == [.exit])
    }

    @Test(arguments: [
        (#"{"device":"a","region":"r","event":"enter"}"#, "time"),
        (#"{"device":"a","event":"enter","time":1}"#, "region"),
        (#"{"device":true,"region":"r","event":"enter","time":1}"#, "device"),
        (#"{"device":"a","region":"r","event":"enter","time":"yesterday"}"#, "time"),
        (#"{"device":"a","#, nil),
    ])
    func invalidEventLinesNameTheLineAndField(line: String, field: String?) {
        let text = #"{"device":"a","region":"r","event":"enter","time":1}"# + "\n" + line + "\n"
        #expect {
            try EventFileReader.read(Array(text.utf8))
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.line == 2 && (field == nil || error.field == field)
        }
    }
}
