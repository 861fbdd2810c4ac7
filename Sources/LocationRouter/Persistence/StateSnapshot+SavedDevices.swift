import GeofenceFormats
import GeofenceKit

/// Where a snapshot keeps its devices: as built (``StateSnapshot/Device`` values), or — a snapshot read from a
/// file — as the file's device lines, every one checked when the file was read and decoded again, alone, when it is
/// asked for.
///
/// A run continuing from a snapshot asks for each device once, as it registers, and for the rest (the devices it did
/// not see) once more as it writes them back. Decoded whole, a million devices' lines (949 MB) became 2.6 GB of named
/// structs — twenty million region-name strings, each its own allocation — held from before the run to its end; the
/// lines themselves, their devices' names and last event numbers are all a restore keeps now.
extension StateSnapshot {
    enum SavedDevices: Sendable {
        case decoded([Device])
        case lines(DeviceLines)

        var count: Int {
            switch self {
            case .decoded(let devices): devices.count
            case .lines(let lines): lines.names.count
            }
        }

        /// The k-th device, decoded.
        subscript(index: Int) -> Device {
            switch self {
            case .decoded(let devices): devices[index]
            case .lines(let lines): lines.device(at: index)
            }
        }

        /// The k-th device's name, without decoding it.
        func name(at index: Int) -> String {
            switch self {
            case .decoded(let devices): devices[index].name
            case .lines(let lines): lines.names[index]
            }
        }

        /// The k-th device's last event `seq`, without decoding it.
        func sequence(at index: Int) -> UInt64 {
            switch self {
            case .decoded(let devices): devices[index].seq
            case .lines(let lines): lines.sequences[index]
            }
        }

        /// Every device, decoded.
        var all: [Device] {
            switch self {
            case .decoded(let devices): devices
            case .lines(let lines): (0..<lines.names.count).map(lines.device(at:))
            }
        }
    }

    /// A snapshot file's bytes and where its device lines lie in them, each line known to decode (with the name and
    /// `seq` it gave).
    struct DeviceLines: Sendable {
        let bytes: [UInt8]
        /// Each device line's bytes, in the file's order.
        let ranges: [Range<Int>]
        let names: [String]
        let sequences: [UInt64]

        func device(at index: Int) -> Device {
            do {
                return try bytes.withUnsafeBufferPointer { bytes throws(InputError) in
                    try StateSnapshot.device(line: UnsafeBufferPointer(rebasing: bytes[ranges[index]]))
                }
            } catch {
                // The same bytes through the same decoder: it gave a device when the file was read.
                preconditionFailure("snapshot device line \(index + 1) decoded when read, not again: \(error)")
            }
        }
    }

    /// The device of a device line: read straight from its bytes when laid out as this version writes it
    /// (``plainDevice(_:)``), else parsed and read the general way.
    static func device(line: UnsafeBufferPointer<UInt8>) throws(InputError) -> Device {
        if let device = plainDevice(line) { return device }
        return try device(try JSONParser.parse(line))
    }
}
