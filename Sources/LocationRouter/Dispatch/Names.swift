import GeofenceKit
import Synchronization

/// Device names by dense index, as devices appear in a sample stream.
///
/// The source appends names while the dispatcher reads them back for output, so the table is shared under a
/// lock; the source keeps its own name → index map, so the lock is taken once per new device and once per
/// event, never per sample.
public final class DeviceRegistry: Sendable {
    private let names = Mutex<[String]>([])

    public init() {}

    /// Adds a new device and returns its index.
    public func append(_ name: String) -> Int32 {
        names.withLock { names in
            names.append(name)
            return Int32(names.count - 1)
        }
    }

    public func name(of index: Int32) -> String {
        names.withLock { $0[Int(index)] }
    }

    public var count: Int { names.withLock { $0.count } }
}

/// How device indices turn back into names at the edges of the pipeline.
public enum DeviceNames: Sendable {
    /// `device-0`, `device-1`, …: the random walk's devices.
    case generated
    case registry(DeviceRegistry)

    public func name(of index: Int32) -> String {
        switch self {
        case .generated: NumberedName.make("device-", Int(index))
        case .registry(let registry): registry.name(of: index)
        }
    }
}

/// How region indices turn back into identifiers.
public enum RegionNames: Sendable {
    /// `device-D/rK` for region `D * perDevice + K`: regions generated for each device.
    case generated(perDevice: Int)
    /// The identifiers of a region file, by index.
    case listed([String])
    /// `catalog-K` for region `K` of a generated shared catalog.
    case catalog

    public func name(of index: Int32) -> String {
        switch self {
        case .generated(let perDevice):
            NumberedName.make("device-", Int(index) / perDevice, "/r", Int(index) % perDevice)
        case .listed(let names):
            names[Int(index)]
        case .catalog:
            NumberedName.make("catalog-", Int(index))
        }
    }
}

/// Names made of fixed text and whole numbers (`device-42`, `device-42/r7`, `catalog-9`), written straight into one
/// string: the same text as an interpolation, which appended its pieces one at a time — naming the twenty million
/// regions of a million devices' snapshot took a fifth of writing it.
enum NumberedName {
    /// `prefix`, `first`'s decimal digits, then `infix` and `second`'s when `infix` is given.
    static func make(_ prefix: StaticString, _ first: Int, _ infix: StaticString? = nil, _ second: Int = 0) -> String {
        // Each number takes at most 20 bytes (a sign and 19 digits).
        let capacity = prefix.utf8CodeUnitCount + 20 + (infix.map { $0.utf8CodeUnitCount + 20 } ?? 0)
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var end = 0
            func append(_ text: StaticString) {
                for i in 0..<text.utf8CodeUnitCount {
                    buffer[end] = text.utf8Start[i]
                    end += 1
                }
            }
            func append(_ number: Int) {
                if number < 0 {
                    buffer[end] = UInt8(ascii: "-")
                    end += 1
                }
                end += DecimalDigits.write(UInt64(number.magnitude), at: buffer.baseAddress! + end)
            }
            append(prefix)
            append(first)
            if let infix {
                append(infix)
                append(second)
            }
            return end
        }
    }
}
