import Foundation
import GeofenceKit
import GeofenceFormats

/// Turns a byte stream of samples into per-shard ``LocationBatch``es: splits lines, decodes them, interns
/// device names, rejects what is invalid (counting it by reason and naming the line), and routes each device
/// to its shard.
///
/// A batch is sent when it is full and, so that slow live streams are not held back, at the end of every chunk
/// the reader hands over (a chunk is whatever one `read` returned). Memory is bounded: a few chunks, one line of
/// at most `maxLineLength` bytes, one batch per shard (each at most one chunk's lines), and at most
/// `maxDevices` distinct device names.
///
/// **Timers follow each device's own clock.** Batches carry no watermark until the input ends: a device's
/// confirmation and dwell timers fire when its own next sample passes them (or at the end of the input, when
/// time stops at the latest sample). A device that runs ahead of another can therefore never fire the other's
/// timers early, and the events do not depend on the shard count or on how the stream's lines interleave.
struct SampleStreamRouter {
    private let input: SampleInput
    private let shardCount: Int
    private let batchSize: Int
    private var pacer: Pacer
    private var format: SampleFormat?
    private var csvHeader: CSVSampleHeader?
    private var deviceIndex: [ExactName: Int32] = [:]
    /// Each device's name, by index, and the device whose sample came after its last one (-1: none yet). Streams
    /// list their devices in much the same order at every time step, so the device after the previous sample's
    /// is usually this sample's: one comparison of names instead of hashing the name and looking it up.
    private var names: [ExactName] = []
    private var successor: [Int32] = []
    private var previousDevice: Int32 = -1
    private var lastTime: [Int64] = []
    /// Whether each device belongs to this process's partition (all do in a whole run).
    private var owned: [Bool] = []
    private let partition: Partition
    private var batches: [LocationBatch]
    private var summary = SourceSummary()
    private var lineNumber = 0
    private static let maxKeptErrors = 20
    private var latest: Int64 = .min

    private var filter: LocationFilter?
    /// Decodes a chunk's lines on every core once the format (and a CSV file's header) is known.
    private let decoder = ParallelSampleDecoder(parts: ProcessInfo.processInfo.activeProcessorCount)

    private let stop: StopSignal?

    init(
        input: SampleInput, shardCount: Int, batchSize: Int, pace: Pace, filter: LocationFilterSettings = .init(),
        seed: UInt64 = 0, stop: StopSignal? = nil, partition: Partition = .whole, clock: any RunClock = .continuous
    ) {
        self.stop = stop
        self.partition = partition
        self.filter = filter.isActive ? LocationFilter(settings: filter, seed: seed, stride: 1) : nil
        self.input = input
        self.shardCount = shardCount
        self.batchSize = batchSize
        pacer = Pacer(pace: pace, clock: clock)
        format = input.format
        batches = Array(repeating: LocationBatch(capacity: batchSize), count: shardCount)
    }

    typealias Send = (LocationBatch, Int) async throws -> Void

    mutating func run(send: Send) async throws -> SourceSummary {
        let chunks = DescriptorChunks(descriptor: input.descriptor, name: input.name)
        // A stop ends the input where it is: what was read is still decoded and evaluated.
        stop?.onRequest { chunks.finish() }
        var splitter = LineSplitter(maxLineLength: input.maxLineLength)
        for try await chunk in chunks.stream {
            let pieces = splitter.lines(in: chunk)
            chunks.consumed()
            try await take(pieces, send: send)
            try await flush(send: send)
        }
        try await take(splitter.finish(), send: send)
        try await flush(send: send)
        // The end of input: time stops at the latest sample, so every shard may fire what fell due by then.
        if latest != .min {
            for shard in batches.indices {
                var last = LocationBatch()
                last.watermark = latest
                try await send(last, shard)
            }
        }
        return summary
    }

    private mutating func take(_ pieces: [LineSplitter.Piece], send: Send) async throws {
        // The lines from `aheadStart` on, decoded at once on every core; the rest of the work stays in line order.
        var ahead: ParallelSampleDecoder.DecodedLines?
        var aheadStart: Int?
        for index in pieces.indices {
            if aheadStart == nil, let format = parallelFormat {
                ahead = decoder.decode(pieces[index...], as: format)
                aheadStart = index
            }
            switch pieces[index] {
            case .line(let line, let number):
                // Decoding stays synchronous; only a full batch waits for its credit, and a paced run for its time.
                let decoded = aheadStart.flatMap { ahead?[index - $0] }
                guard let sample = try decode(line, number: number, decoded: decoded) else { continue }
                if pacer.isPaced, pacer.delay(until: sample.time.microseconds) > 0 {
                    // Whatever is due goes out before the source sleeps until this sample's moment.
                    try await flush(send: send)
                    try await pacer.wait(until: sample.time.microseconds, stop: stop)
                }
                if let shard = try route(sample), batches[shard].count >= batchSize {
                    try await dispatch(shard: shard, via: send)
                }
            case .tooLong(let number):
                if format != .ndjson && csvHeader == nil {
                    // The first line of CSV (or of a stream whose format is still unknown) is its header: without
                    // it no line can be read, so this is fatal whatever the policy.
                    throw BadInputError(
                        reason: .lineTooLong,
                        error: InputError(
                            "the first line (a CSV header, or the line that tells the format) is longer than "
                                + "\(input.maxLineLength) bytes", line: number
                        ).in(file: input.name))
                }
                summary.read += 1
                try reject(
                    .lineTooLong, InputError("line is longer than \(input.maxLineLength) bytes", line: number),
                    owned: partition.index == 0)
            }
        }
    }

    /// The format every remaining line decodes in on its own, once the stream has told it (and a CSV header).
    private var parallelFormat: ParallelSampleDecoder.Format? {
        switch format {
        case .ndjson?: .ndjson
        case .csv?: csvHeader.map { .csv($0) }
        case nil: nil
        }
    }

    /// Decodes one line (without its newline), or takes what ``ParallelSampleDecoder`` made of it; `nil` for a
    /// blank line, the CSV header or a rejected line.
    private mutating func decode(
        _ line: ArraySlice<UInt8>, number: Int, decoded: ParallelSampleDecoder.Decoded?
    ) throws -> LocationSample? {
        lineNumber = number
        switch decoded {
        case .skipped?:
            return nil
        case .sample(let sample)?:
            summary.read += 1
            return sample
        case .rejected(let error)?:
            summary.read += 1
            try reject(error.reason, error.error, owned: partition.index == 0)
            return nil
        case nil:
            break
        }
        if SampleDecoder.isBlank(line) { return nil }
        let format = format ?? SampleFormat.detect(firstLine: line)
        self.format = format
        if format == .ndjson || csvHeader != nil { summary.read += 1 }
        let sample: LocationSample
        do {
            switch format {
            case .ndjson:
                sample = try SampleDecoder.decodeNDJSON(line: line, lineNumber: lineNumber)
            case .csv:
                guard let header = csvHeader else {
                    // The header is not a sample; the line after it is the first one read.
                    do {
                        csvHeader = try CSVSampleHeader(line: line, lineNumber: lineNumber)
                    } catch {
                        // Without a header no line can be read: this is fatal whatever the policy.
                        throw BadInputError(reason: error.reason, error: error.error.in(file: input.name))
                    }
                    return nil
                }
                sample = try SampleDecoder.decodeCSV(line: line, header: header, lineNumber: lineNumber)
            }
        } catch let error as SampleDecodingError {
            // A line without a readable device belongs to no partition: the first one counts it.
            try reject(error.reason, error.error, owned: partition.index == 0)
            return nil
        }
        return sample
    }

    /// Queues a sample for its device's shard; returns the shard, or `nil` when the sample is rejected.
    private mutating func route(_ sample: LocationSample) throws -> Int? {
        let device: Int32
        let name = ExactName(sample.device)
        if previousDevice >= 0, case let guess = successor[Int(previousDevice)], guess >= 0, names[Int(guess)] == name {
            device = guess
        } else if let known = deviceIndex[name] {
            device = known
        } else {
            guard deviceIndex.count < input.maxDevices else {
                try reject(
                    .tooManyDevices,
                    InputError(
                        "device \"\(sample.device)\" is past the limit of \(input.maxDevices) distinct devices that "
                            + "this machine's memory can hold (see MemoryBudget in the README)",
                        line: lineNumber, field: "device"), owned: partition.owns(deviceID: sample.device))
                return nil
            }
            // Every device is numbered, owned or not, so that a device's index (and its seeded draws) is the same
            // in every partition that reads the same stream as in the whole run.
            device = input.registry.append(sample.device)
            deviceIndex[name] = device
            names.append(name)
            successor.append(-1)
            lastTime.append(.min)
            owned.append(partition.owns(deviceID: sample.device))
        }
        if previousDevice >= 0 { successor[Int(previousDevice)] = device }
        previousDevice = device
        let time = sample.time.microseconds
        let isOwned = owned[Int(device)]
        guard time >= lastTime[Int(device)] else {
            try reject(
                .outOfOrder,
                InputError(
                    "\(sample.time.iso8601) is older than the previous sample of device \"\(sample.device)\" (\(Timestamp(microseconds: lastTime[Int(device)]).iso8601))",
                    line: lineNumber, field: "time"), owned: isOwned)
            return nil
        }
        lastTime[Int(device)] = time
        // Samples of other partitions still move the clock, as they would in the whole run.
        latest = max(latest, time)
        guard isOwned else {
            summary.read -= 1
            return nil
        }
        let shard = Int(device) % shardCount
        guard batches[shard].append(
            device: device, latitude: sample.coordinate.latitude, longitude: sample.coordinate.longitude,
            time: sample.time, accuracy: sample.accuracy, through: &filter)
        else {
            summary.filtered += 1
            return nil
        }
        return shard
    }

    /// Counts a rejected line and reports it; under `failOnBadInput` it ends the run. A line another partition
    /// owns ends the run too, but only its owner counts and reports it.
    private mutating func reject(_ reason: SampleRejection, _ error: InputError, owned: Bool = true) throws {
        let error = error.in(file: input.name)
        if input.failOnBadInput { throw BadInputError(reason: reason, error: error) }
        guard owned else {
            summary.read -= 1
            return
        }
        summary.rejected[reason, default: 0] += 1
        if summary.inputErrors.count < Self.maxKeptErrors { summary.inputErrors.append(error) }
        input.onRejection?(error)
    }

    /// Sends every non-empty batch.
    private mutating func flush(send: Send) async throws {
        for shard in batches.indices where !batches[shard].isEmpty {
            try await dispatch(shard: shard, via: send)
        }
    }

    private mutating func dispatch(shard: Int, via send: Send) async throws {
        let batch = batches[shard]
        batches[shard] = LocationBatch(capacity: batchSize)
        summary.noteTimes(of: batch)
        try await send(batch, shard)
    }
}
