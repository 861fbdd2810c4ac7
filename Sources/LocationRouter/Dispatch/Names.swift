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
        case .generated: "device-\(index)"
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
            "device-\(Int(index) / perDevice)/r\(Int(index) % perDevice)"
        case .listed(let names):
            names[Int(index)]
        case .catalog:
            "catalog-\(index)"
        }
    }
}
