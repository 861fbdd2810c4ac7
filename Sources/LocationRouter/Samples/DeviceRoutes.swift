/// What the router keeps of each device: its latest sample's time (a sample older than it is rejected), its
/// shard (`device mod shardCount`, computed once instead of a division per sample), and whether this process's
/// partition owns it.
struct DeviceRoute {
    var lastTime: Int64
    let shard: Int32
    let isOwned: Bool
}

/// Every device's ``DeviceRoute``, by device number, in storage of its own: the router updates a device's time at
/// every sample, and as an array element that update checked the array's uniqueness (a call into the runtime) each
/// time; here it is one store.
final class DeviceRoutes {
    private var storage: UnsafeMutablePointer<DeviceRoute>
    private var capacity = 1024
    private(set) var count = 0

    init() {
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The route of the next device number.
    func append(_ route: DeviceRoute) {
        if count == capacity {
            let grown = UnsafeMutablePointer<DeviceRoute>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity *= 2
        }
        (storage + count).initialize(to: route)
        count += 1
    }

    subscript(device: Int) -> DeviceRoute {
        precondition(device >= 0 && device < count, "a device without a route")
        return storage[device]
    }

    func setLastTime(_ time: Int64, of device: Int) {
        precondition(device >= 0 && device < count, "a device without a route")
        storage[device].lastTime = time
    }
}
