import GeofenceKit
import LocationRouter
import GeofenceFormats

/// Line decoding alone: ``SampleDecoder`` over lines already split and held in memory, into ``LocationSample``s.
///
/// The lines are a random walk's samples as a fleet feed writes them: `device-N` names, seven decimals, ISO-8601
/// times, an accuracy on every fourth line (an empty CSV field otherwise).
enum DecodingBenchmarks {
    /// Lines in one buffer: line `k` is `bytes[starts[k]..<ends[k]]`, without its newline.
    struct Lines: Sendable {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var ends: [Int] = []

        mutating func append(_ line: String) {
            starts.append(bytes.count)
            bytes += line.utf8
            ends.append(bytes.count)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    static func ndjson(lines: Int, devices: Int) -> Benchmark {
        Benchmark(
            name: "decodeNDJSON",
            summary: "one core: SampleDecoder.decodeNDJSON over \(lines) pre-split lines in memory",
            unit: "lines",
            prepare: {
                let text = make(lines: lines, devices: devices) { device, latitude, longitude, time, accuracy in
                    let extra: String = accuracy.map { #","accuracy":\#($0)"# } ?? ""
                    return #"{"device":"\#(device)","lat":\#(latitude),"lon":\#(longitude),"time":"\#(time)"\#(extra)}"#
                }
                return {
                    try decode(text) { try SampleDecoder.decodeNDJSON(line: $0, lineNumber: $1) }
                }
            })
    }

    static func csv(lines: Int, devices: Int) -> Benchmark {
        Benchmark(
            name: "decodeCSV",
            summary: "one core: SampleDecoder.decodeCSV over \(lines) pre-split lines in memory",
            unit: "lines",
            prepare: {
                let header = try CSVSampleHeader("device,lat,lon,time,accuracy")
                let text = make(lines: lines, devices: devices) { device, latitude, longitude, time, accuracy in
                    let field: String = accuracy.map { "\($0)" } ?? ""
                    return "\(device),\(latitude),\(longitude),\(time),\(field)"
                }
                return {
                    try decode(text) { try SampleDecoder.decodeCSV(line: $0, header: header, lineNumber: $1) }
                }
            })
    }

    /// What the intake's decoding tasks do, on one core: the files workload's 1,000,000 full-precision lines, cut
    /// into 256 KiB blocks of whole lines beforehand, decoded block by block into columns.
    static func blocks(format: SampleFormat) -> Benchmark {
        Benchmark(
            name: format == .csv ? "decodeCSVBlocks" : "decodeNDJSONBlocks",
            summary: "one core: SampleBlockDecoder over the files workload's \(format == .csv ? "CSV" : "NDJSON") "
                + "in 256 KiB blocks",
            unit: "lines",
            prepare: {
                let workload = FilesWorkload.shared
                var bytes = format == .csv ? workload.csv : workload.ndjson
                if format == .csv { bytes.removeFirst(bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1) }
                var reader = LineBlockReader()
                var blocks: [(bytes: [UInt8], firstLine: Int)] = []
                var offset = 0
                while let block = reader.next(reading: { buffer in
                    let count = min(buffer.count, bytes.count - offset)
                    _ = buffer.initialize(from: bytes[offset..<offset + count])
                    offset += count
                    return count
                }) {
                    guard case .lines(let bytes, let firstLine, _) = block else { continue }
                    blocks.append((bytes, firstLine))
                }
                let decoding: SampleBlockDecoder.Format =
                    format == .csv ? .csv(try CSVSampleHeader("device,lat,lon,time")) : .ndjson
                let total = bytes.count
                let cut = blocks
                return {
                    var samples = 0
                    for block in cut {
                        let decoded = SampleBlockDecoder.decode(
                            block.bytes, firstLine: block.firstLine, as: decoding, maxLineLength: 1 << 20)
                        guard decoded.rejections.isEmpty else { throw BenchmarkFailure("a line was rejected") }
                        samples += decoded.count
                    }
                    return Outcome(units: samples, bytes: total)
                }
            },
            shared: { _ = FilesWorkload.shared })
    }

    /// Decodes every line; a line that fails fails the benchmark.
    private static func decode(
        _ lines: Lines,
        _ decodeLine: (UnsafeBufferPointer<UInt8>, Int) throws -> LocationSample
    ) throws -> Outcome {
        var checksum = 0.0
        var failures = 0
        lines.bytes.withUnsafeBufferPointer { buffer in
            for k in lines.starts.indices {
                do {
                    let sample = try decodeLine(
                        UnsafeBufferPointer(rebasing: buffer[lines.starts[k]..<lines.ends[k]]), k + 1)
                    checksum += sample.coordinate.latitude
                } catch {
                    failures += 1
                }
            }
        }
        guard failures == 0, checksum.isFinite else { throw BenchmarkFailure("\(failures) lines failed to decode") }
        return Outcome(units: lines.starts.count, bytes: lines.bytes.count)
    }

    /// `count` lines of a random walk of `devices` devices, formatted by `format`.
    private static func make(
        lines count: Int, devices: Int,
        _ format: (_ device: String, _ latitude: Double, _ longitude: Double, _ time: String, _ accuracy: Double?) ->
            String
    ) -> Lines {
        let devices = max(1, min(devices, count))
        let walk = Workloads.walk(devices: devices, regions: 0, seconds: (count + devices - 1) / devices)
        let samples = Workloads.samples(of: walk)
        var lines = Lines()
        lines.bytes.reserveCapacity(count * 110)
        var times: [Int64: String] = [:]
        for i in 0..<min(count, samples.count) {
            let time = samples.times[i]
            let text = times[time] ?? Timestamp(microseconds: time).iso8601
            times[time] = text
            lines.append(
                format(
                    "device-\(samples.devices[i])", rounded(samples.latitudes[i]), rounded(samples.longitudes[i]), text,
                    i % 4 == 0 ? Double(5 + i % 60) / 2 : nil))
        }
        return lines
    }

    /// Seven decimals (about 1 cm), as GPS feeds write them.
    private static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }
}
