import GeofenceKit

/// Encodes events as NDJSON lines, the format of `--events` and the webhook bodies.
///
/// `{"device":"bus-17","region":"taipei-main","event":"enter","time":"2026-11-21T08:00:42Z","lat":25.0478,"lon":121.517,"seq":1}`
/// — `state` events add `"inside"`; `failed` events carry `"code"` and `"reason"` instead of a position. `seq`
/// numbers each device's events 1, 2, 3, … in its order (continuing after a restart from `--state`), so a
/// consumer can tell a repeated event from a new one with the key (`device`, `seq`).
/// Names are JSON-escaped once and cached, since the same devices and regions recur.
public struct EventEncoder: Sendable {
    private let deviceNames: DeviceNames
    private let regionNames: RegionNames
    private var deviceCache: [[UInt8]?] = []
    private var regionCache: [[UInt8]?] = []
    /// The date of the last day an event time fell on, as text.
    private var times = TimestampTextCache()
    /// The last `seq` given to each device (by index); 0: none yet.
    private var sequence: [UInt64] = []
    /// The buffer a batch's lines are built in (``LineWriter``), allocated with the first batch and kept: a
    /// temporary buffer this size is allocated on the heap, which cost about ten instructions an event.
    private var scratch: [UInt8] = []
    private static let scratchSize = 8_192
    /// The last `seq` of a device in an earlier run, asked once per device.
    private let restoredSequence: (@Sendable (Int32) -> UInt64?)?

    /// - Parameter restoredSequence: a device's last `seq` in the run this one continues from.
    public init(
        deviceNames: DeviceNames, regionNames: RegionNames, restoredSequence: (@Sendable (Int32) -> UInt64?)? = nil
    ) {
        self.deviceNames = deviceNames
        self.regionNames = regionNames
        self.restoredSequence = restoredSequence
    }

    /// The last `seq` given to `device`, or 0.
    public func lastSequence(of device: Int32) -> UInt64 {
        Int(device) < sequence.count ? sequence[Int(device)] : 0
    }

    /// Every device that has events, with its last `seq`.
    public var sequences: [(device: Int32, seq: UInt64)] {
        sequence.indices.compactMap { sequence[$0] == 0 ? nil : (Int32($0), sequence[$0]) }
    }

    /// The next `seq` of `device`, from the table held by pointer while a batch is encoded (grown first to hold
    /// every device of the batch). Through the array, every event paid for a uniqueness check and a bounds check.
    @inline(__always)
    private static func nextSequence(of device: Int32, in sequences: UnsafeMutablePointer<UInt64>) -> UInt64 {
        sequences[Int(device)] &+= 1
        return sequences[Int(device)]
    }

    /// Makes room for the `seq` of devices up to `device`, from the run continued where there is one.
    @inline(never)
    private mutating func growSequences(toInclude device: Int) {
        let start = sequence.count
        sequence.append(contentsOf: repeatElement(0, count: device + 1 - start))
        if let restoredSequence {
            for d in start...device { sequence[d] = restoredSequence(Int32(d)) ?? 0 }
        }
    }

    /// Appends one event as a line (with its newline) to `output`.
    public mutating func encode(_ event: GeofenceEvent, into output: inout [UInt8]) {
        withUnsafePointer(to: event) { encode(UnsafeBufferPointer(start: $0, count: 1), into: &output) }
    }

    /// Appends each event as a line to `output`, in order: the lines are built in a scratch buffer and copied to
    /// `output` once per 8 KiB, not once per event.
    public mutating func encode(_ events: [GeofenceEvent], into output: inout [UInt8]) {
        events.withUnsafeBufferPointer { encode($0, into: &output) }
    }

    private mutating func encode(_ events: UnsafeBufferPointer<GeofenceEvent>, into output: inout [UInt8]) {
        // Every device of the batch gets its `seq` entry first; the table and the scratch buffer are then held by
        // pointer (out of `self`, which the lines' writing mutates) until the batch is written.
        var last = -1
        for event in events { last = max(last, Int(event.device)) }
        if last >= sequence.count { growSequences(toInclude: last) }
        var table: [UInt64] = []
        var lines: [UInt8] = []
        swap(&table, &sequence)
        swap(&lines, &scratch)
        defer {
            swap(&table, &sequence)
            swap(&lines, &scratch)
        }
        if lines.isEmpty { lines = [UInt8](repeating: 0, count: Self.scratchSize) }
        table.withUnsafeMutableBufferPointer { sequences in
            let sequences = sequences.baseAddress!
            lines.withUnsafeMutableBufferPointer { scratch in
                var line = LineWriter(scratch: scratch)
                // By index: with the line's writing inlined, the buffer's iterator became a call of its own.
                for index in events.indices {
                    encode(events[index], sequences: sequences, into: &line, output: &output)
                }
                line.flush(into: &output)
            }
        }
    }

    /// Writes one event's line: always inlined in the batch's loop, where its call cost about thirty instructions
    /// an event (its frame, and the loop's state saved and loaded again around it).
    @inline(always)
    private mutating func encode(
        _ event: GeofenceEvent, sequences: UnsafeMutablePointer<UInt64>, into writer: inout LineWriter,
        output: inout [UInt8]
    ) {
        // Written through a local copy, put back at the end: the line's bytes are stored through a raw pointer,
        // which for all the compiler knows may point into `writer`, so each piece stored its count and the next
        // loaded it again.
        var line = writer
        defer { writer = line }
        line.startLine(flushingInto: &output)
        // A generated device's digits, which the names of its own generated regions (`device-N/rI`) repeat.
        var deviceDigits = LineWriter.Digits(word: 0, count: 0)
        switch deviceNames {
        case .generated:
            // Generated names are written from their number: nothing to cache, whatever the device count.
            line.write(#"{"device":"device-"#)
            deviceDigits = line.write(decimal: Int(event.device))
            line.write(byte: UInt8(ascii: "\""))
        case .registry:
            line.write(#"{"device":"#)
            line.write(cachedName(event.device, in: &deviceCache) { deviceNames.name(of: $0) }, flushingInto: &output)
        }
        if event.kind == .visit {
            line = encodeVisit(event, sequences: sequences, after: line, output: &output)
            return
        }
        switch regionNames {
        case .generated(let perDevice):
            let (owner, index) = Self.generatedRegion(event.region, perDevice: perDevice, device: event.device)
            line.write(#","region":"device-"#)
            if owner == Int(event.device) && deviceDigits.count > 0 {
                line.write(digits: deviceDigits)
            } else {
                line.write(decimal: owner)
            }
            line.write("/r")
            line.write(decimal: index)
            line.write(byte: UInt8(ascii: "\""))
        case .listed:
            line.write(#","region":"#)
            line.write(cachedName(event.region, in: &regionCache) { regionNames.name(of: $0) }, flushingInto: &output)
        case .catalog:
            line.write(#","region":"catalog-"#)
            line.write(decimal: Int(event.region))
            line.write(byte: UInt8(ascii: "\""))
        }
        Self.writeEventField(of: event.kind, into: &line)
        switch event.kind {
        case .failed:
            line.write(#","code":"#)
            line.write(String(event.code), flushingInto: &output)
            line.write(#","reason":""#)
            line.write(event.failure?.description ?? "unknown", flushingInto: &output)
            if let condition = event.condition {
                line.write(#"","state":""#)
                line.write(condition.description, flushingInto: &output)
            }
            line.write(#"","time":""#)
            line.write(event.time, cache: &times)
            line.write(#"","seq":"#)
            line.write(decimal: Int(Self.nextSequence(of: event.device, in: sequences)))
            line.write("}\n")
            return
        case .state:
            line.write(event.inside ? #","inside":true"# : #","inside":false"#)
        case .enter, .exit, .dwell, .visit:
            break
        }
        if let condition = event.condition {
            line.write(#","state":""#)
            line.write(condition.description, flushingInto: &output)
            line.write(byte: UInt8(ascii: "\""))
        }
        line.write(#","time":""#)
        line.write(event.time, cache: &times)
        if let detected = event.detectedAt {
            line.write(#"","detectedAt":""#)
            line.write(detected, cache: &times)
        }
        line.write(#"","lat":"#)
        Self.writePositionAndSequence(of: event, sequences: sequences, into: &line)
    }

    /// The device a generated region (`device-N/rI`, numbered N × `perDevice` + I) belongs to, and its index there.
    ///
    /// An event's region is almost always one of its own device's: checked with a multiplication, which spares
    /// the division (tens of cycles) that any other region costs.
    @inline(__always)
    static func generatedRegion(_ region: Int32, perDevice: Int, device: Int32) -> (owner: Int, index: Int) {
        let index = Int(region) &- Int(device) &* perDevice
        if index >= 0 && index < perDevice { return (Int(device), index) }
        return (Int(region) / perDevice, Int(region) % perDevice)
    }

    /// Writes ``eventField(of:)`` with one literal per kind, each copied with its length known: through the one
    /// `StaticString` of any kind, the copy was a `memcpy` call per event.
    @inline(__always)
    static func writeEventField(of kind: EventKind, into line: inout LineWriter) {
        switch kind {
        case .enter: line.write(eventField(of: .enter))
        case .exit: line.write(eventField(of: .exit))
        case .dwell: line.write(eventField(of: .dwell))
        case .state: line.write(eventField(of: .state))
        case .failed: line.write(eventField(of: .failed))
        case .visit: line.write(eventField(of: .visit))
        }
    }

    /// The `event` field of a kind, its name being its `description` (the tests compare the two): one literal.
    @inline(__always)
    static func eventField(of kind: EventKind) -> StaticString {
        switch kind {
        case .enter: #","event":"enter""#
        case .exit: #","event":"exit""#
        case .dwell: #","event":"dwell""#
        case .state: #","event":"state""#
        case .failed: #","event":"failed""#
        case .visit: #","event":"visit""#
        }
    }

    /// The rest of a `visit` event after its device: `"event":"visit","visit":"arrival"|"departure"`, the time,
    /// `arrival` (when the stay began), for a departure `duration` (seconds), the place's position and `seq`.
    ///
    /// Takes the writer by value and returns it, as ``LineWriter``'s own rare paths do: a writer passed `inout` to
    /// a call is kept in memory for the whole batch's loop.
    private mutating func encodeVisit(
        _ event: GeofenceEvent, sequences: UnsafeMutablePointer<UInt64>, after start: LineWriter,
        output: inout [UInt8]
    ) -> LineWriter {
        var line = start
        line.write(#","event":"visit","visit":""#)
        line.write((event.visit ?? .arrival).description, flushingInto: &output)
        line.write(#"","time":""#)
        line.write(event.time, cache: &times)
        line.write(byte: UInt8(ascii: "\""))
        if let arrival = event.arrival {
            line.write(#","arrival":""#)
            line.write(arrival, cache: &times)
            line.write(byte: UInt8(ascii: "\""))
            if event.visit == .departure {
                line.write(#","duration":"#)
                let seconds = Double(event.time.microseconds - arrival.microseconds) / 1e6
                line.write(Self.seconds(seconds), flushingInto: &output)
            }
        }
        line.write(#","lat":"#)
        Self.writePositionAndSequence(of: event, sequences: sequences, into: &line)
        return line
    }

    /// The end every line shares, from the latitude's value on (its key ends the field before it, which differs):
    /// the latitude, `"lon"`, the device's next `"seq"` and the line's end.
    ///
    /// Static and always inlined: as a method it was called with a copy of the encoder (16 moves an event), and
    /// the call's frame cost as much again.
    @inline(always)
    private static func writePositionAndSequence(
        of event: GeofenceEvent, sequences: UnsafeMutablePointer<UInt64>, into line: inout LineWriter
    ) {
        line.write(event.latitude)
        line.write(#","lon":"#)
        line.write(event.longitude)
        line.write(#","seq":"#)
        line.write(decimal: Int(Self.nextSequence(of: event.device, in: sequences)))
        line.write("}\n")
    }

    /// Seconds as a JSON number: whole seconds without a fraction, otherwise up to the microsecond.
    static func seconds(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String((value * 1e6).rounded() / 1e6)
    }

    private func cachedName(_ index: Int32, in cache: inout [[UInt8]?], name: (Int32) -> String) -> [UInt8] {
        let i = Int(index)
        if i < cache.count, let bytes = cache[i] { return bytes }
        if i >= cache.count { cache.append(contentsOf: repeatElement(nil, count: i + 1 - cache.count)) }
        let bytes = Self.quoted(name(index))
        cache[i] = bytes
        return bytes
    }

    /// A JSON string literal, quotes included, as text.
    public static func jsonLiteral(_ text: String) -> String {
        String(decoding: quoted(text), as: UTF8.self)
    }

    /// A JSON string literal, quotes included.
    static func quoted(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes)
        return bytes
    }

    /// Appends the JSON string literal of `text`, quotes included.
    static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Most names need no escape: copied at once (a snapshot of a million devices quotes 21 million).
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
            } else {
                appendEscaped(utf8, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `utf8` with the characters JSON strings escape escaped.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
    }
}
