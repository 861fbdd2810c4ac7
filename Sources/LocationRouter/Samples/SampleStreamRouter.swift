import Foundation
import GeofenceKit
import GeofenceFormats

/// Turns a byte stream of samples into per-shard ``LocationBatch``es: takes the stream's blocks of lines as
/// ``SampleBlockStream`` decodes them (on every core, while this walks the blocks before), numbers device names,
/// rejects what is invalid (counting it by reason and naming the line), and routes each device to its shard.
/// Everything that depends on the lines before — the format and CSV header, each device's number and order, the
/// counts, the rejections' order and the first bad line under `--on-bad-input fail` — happens here, in line order,
/// so a run reads exactly as it would line by line.
///
/// A batch is sent when it is full and, so that slow live streams are not held back, at the end of every block
/// the reader hands over (what one `read` returned, or several while more was ready at once) unless the next block
/// is already read. Memory is bounded: a few blocks, one line of at most `maxLineLength` bytes, one batch per
/// shard (each at most the batch size), and at most `maxDevices` distinct device names.
///
/// **Timers follow each device's own clock.** Batches carry no watermark until the input ends: a device's
/// confirmation and dwell timers fire when its own next sample passes them (or at the end of the input, when
/// time stops at the latest sample). A device that runs ahead of another can therefore never fire the other's
/// timers early, and the events do not depend on the shard count or on how the stream's lines interleave.
struct SampleStreamRouter {
    private let input: SampleInput
    private let shardCount: Int
    private var pacer: Pacer
    /// How every line after the preamble decodes, once the stream has told its format (and a CSV header).
    private var blockFormat: SampleBlockDecoder.Format?
    /// Each device's number, by its name's bytes.
    private var devices = DeviceNameTable()
    /// Where each device's samples go, by its number.
    private let routes = DeviceRoutes()
    private let partition: Partition
    /// Each shard's batch being filled.
    private let batches: PendingBatches
    private var summary = SourceSummary()
    private static let maxKeptErrors = 20
    private var latest: Int64 = .min

    private var filter: LocationFilter?

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
        pacer = Pacer(pace: pace, clock: clock)
        blockFormat = input.format == .ndjson ? .ndjson : nil
        batches = PendingBatches(shards: shardCount, capacity: batchSize)
    }

    typealias Send = (LocationBatch, Int) async throws -> Void

    mutating func run(send: Send) async throws -> SourceSummary {
        let blocks = input.blocks()
        // A stop ends the input where it is: what was read is still decoded and evaluated.
        stop?.onRequest { blocks.finish() }
        // The block routed last, whose buffers go back to the reader and decoders once the task that decoded it,
        // which holds it too, is gone: at the next block.
        var routed: DecodedSampleBlock?
        for try await item in blocks.items {
            if let block = routed.take() { blocks.buffers.recycle(block) }
            switch item {
            case .decoding(let task):
                let decoded = await task.value
                blocks.consumed()
                try await take(decoded, send: send)
                routed = decoded
            case .undecoded(let block):
                blocks.consumed()
                try await take(block, from: blocks, send: send)
            }
            // Each block's samples go out at its end, so that a slow live stream's are not held back; when the
            // next block is already read, with its samples (a stream read at full speed then sends full batches).
            if !blocks.hasBlocksWaiting { try await flush(send: send) }
        }
        try await flush(send: send)
        // The end of input: time stops at the latest sample, so every shard may fire what fell due by then.
        if latest != .min {
            for shard in 0..<shardCount {
                var last = LocationBatch()
                last.watermark = latest
                try await send(last, shard)
            }
        }
        return summary
    }

    /// A block the reader did not decode: the preamble's (``SamplePreamble``: its first lines tell the format and
    /// are a CSV file's header), or one read before the format was known. Its samples are decoded here, and the
    /// blocks read from then on on every core.
    private mutating func take(_ block: LineBlock, from blocks: SampleBlockStream, send: Send) async throws {
        switch block {
        case .tooLong(let line):
            try rejectTooLong(line: line)
        case .lines(let bytes, let firstLine, _):
            let preamble: (format: SampleBlockDecoder.Format, start: Int, line: Int)?
            if let blockFormat {
                // Read before the reader learnt the format: whole lines of samples.
                preamble = (blockFormat, 0, firstLine)
            } else {
                do {
                    preamble = try SamplePreamble.read(
                        bytes, firstLine: firstLine, format: input.format, maxLineLength: input.maxLineLength)
                } catch {
                    throw BadInputError(reason: error.reason, error: error.error.in(file: input.name))
                }
            }
            guard let (format, start, line) = preamble else { return }
            blockFormat = format
            blocks.decode(as: format)
            if start < bytes.count {
                try await take(
                    SampleBlockDecoder.decode(
                        bytes, from: start, firstLine: line, as: format, maxLineLength: input.maxLineLength),
                    send: send)
            }
        }
    }

    /// A line longer than ``SampleInput/maxLineLength``: rejected, or fatal as the first line, which is the CSV
    /// header (or tells the format) and without which no line can be read.
    private mutating func rejectTooLong(line: Int) throws {
        guard blockFormat != nil else {
            let error = SamplePreamble.lineTooLong(line, maxLineLength: input.maxLineLength)
            throw BadInputError(reason: error.reason, error: error.error.in(file: input.name))
        }
        summary.read += 1
        try reject(
            .lineTooLong, InputError("line is longer than \(input.maxLineLength) bytes", line: line),
            owned: partition.index == 0)
    }

    /// Routes a decoded block's samples and counts its rejected lines, in line order.
    private mutating func take(_ block: DecodedSampleBlock, send: Send) async throws {
        var rejections = block.rejections[...]
        for index in 0..<block.count {
            while let rejection = rejections.first, rejection.samplesBefore <= index {
                try rejectDecoded(rejection.error)
                rejections.removeFirst()
            }
            summary.read += 1
            let time = block.samples[index].time
            if pacer.isPaced, pacer.delay(until: time) > 0 {
                // Whatever is due goes out before the source sleeps until this sample's moment.
                try await flush(send: send)
                try await pacer.wait(until: time, stop: stop)
            }
            // Only a full batch waits for its credit, and a paced run for its time.
            if let shard = try route(block, index), batches.isFull(shard) {
                try await dispatch(shard: shard, via: send)
            }
        }
        for rejection in rejections { try rejectDecoded(rejection.error) }
    }

    /// A line the decoder refused. A line without a readable device belongs to no partition: the first one counts it.
    private mutating func rejectDecoded(_ error: SampleDecodingError) throws {
        summary.read += 1
        try reject(error.reason, error.error, owned: partition.index == 0)
    }

    /// Queues sample `index` of `block` for its device's shard; returns the shard, or `nil` when the sample is
    /// rejected.
    private mutating func route(_ block: DecodedSampleBlock, _ index: Int) throws -> Int? {
        let sample = block.samples[index]
        let span = sample.name
        let hash = sample.nameHash
        let known = block.bytes.withUnsafeBufferPointer {
            devices.find(UnsafeBufferPointer(rebasing: $0[span]), hash: hash)
        }
        let device: Int32
        if let known {
            device = known
        } else {
            let name = block.name(of: index)
            guard devices.count < input.maxDevices else {
                try reject(
                    .tooManyDevices,
                    InputError(
                        "device \"\(name)\" is past the limit of \(input.maxDevices) distinct devices that "
                            + "this machine's memory can hold (see MemoryBudget in the README)",
                        line: sample.lineNumber, field: "device"), owned: partition.owns(deviceID: name))
                return nil
            }
            // Every device is numbered, owned or not, so that a device's index (and its seeded draws) is the same
            // in every partition that reads the same stream as in the whole run.
            device = block.bytes.withUnsafeBufferPointer {
                devices.insert(UnsafeBufferPointer(rebasing: $0[span]), hash: hash)
            }
            let registered = input.registry.append(name)
            assert(registered == device, "the registry numbers devices as the router does")
            routes.append(
                DeviceRoute(
                    lastTime: .min, shard: Int32(Int(device) % shardCount), isOwned: partition.owns(deviceID: name)))
        }
        let time = sample.time
        let route = routes[Int(device)]
        guard time >= route.lastTime else {
            try reject(
                .outOfOrder,
                InputError(
                    "\(Timestamp(microseconds: time).iso8601) is older than the previous sample of device "
                        + "\"\(block.name(of: index))\" (\(Timestamp(microseconds: route.lastTime).iso8601))",
                    line: sample.lineNumber, field: "time"), owned: route.isOwned)
            return nil
        }
        routes.setLastTime(time, of: Int(device))
        // Samples of other partitions still move the clock, as they would in the whole run.
        latest = max(latest, time)
        guard route.isOwned else {
            summary.read -= 1
            return nil
        }
        let shard = Int(route.shard)
        var (latitude, longitude, accuracy) = (sample.latitude, sample.longitude, sample.accuracy)
        if let outcome = filter?.apply(
            device: device, latitude: latitude, longitude: longitude, time: Timestamp(microseconds: time),
            accuracy: accuracy.isNaN ? nil : accuracy)
        {
            guard outcome.isDelivered else {
                summary.filtered += 1
                return nil
            }
            (latitude, longitude, accuracy) = (outcome.latitude, outcome.longitude, outcome.accuracy ?? .nan)
        }
        batches.append(
            shard: shard, device: device, latitude: latitude, longitude: longitude, time: time,
            accuracy: accuracy.isNaN ? .nan : Float(accuracy))
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
        for shard in 0..<shardCount where batches.count(of: shard) > 0 {
            try await dispatch(shard: shard, via: send)
        }
    }

    private mutating func dispatch(shard: Int, via send: Send) async throws {
        let batch = batches.take(shard)
        summary.noteTimes(of: batch)
        try await send(batch, shard)
    }
}
