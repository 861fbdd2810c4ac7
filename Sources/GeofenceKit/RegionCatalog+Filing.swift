extension RegionCatalog {
    /// Files regions one at a time, in file order: takes each one's id, and notes which devices monitor it.
    ///
    /// Files list a device's regions together: a run of consecutive regions naming the same one device is filed in
    /// the device table once, as a range, when the run ends, instead of hashing the name for every region.
    struct Filing {
        private(set) var count = 0
        private var identifiers: [String] = []
        private var everyDevice: [Int32] = []
        private var byDevice: [ExactName: [Int32]] = [:]
        /// The run of regions naming one device that the last region belongs to.
        private var run: (device: ExactName, start: Int)?
        /// Where the last region's one-device list is stored, when it has one: a region whose list is the very same
        /// array (a decoder shares one device's list among its regions) continues the run without comparing names.
        /// Only compared, never read: the regions filed keep the array alive.
        private var lastList: UnsafeRawPointer?

        /// Room for `expected` regions' ids, reserved at once (in huge pages when large, see ``HugePages``).
        init(expected: Int) {
            identifiers.reserveCapacity(expected)
            HugePages.advise(capacityOf: &identifiers)
        }

        /// Files `region`, the next one in file order.
        mutating func file(_ region: borrowing Region) {
            file(id: region.id, devices: region.devices)
        }

        /// Files the next region in file order, by its id and device list: taken from an array's region rather than
        /// the region itself, which would be copied whole.
        @inline(__always)
        mutating func file(id: String, devices: [String]?) {
            let index = count
            count += 1
            identifiers.append(id)
            guard let devices else {
                endRun(at: index)
                lastList = nil
                everyDevice.append(Int32(index))
                return
            }
            guard devices.count == 1 else {
                endRun(at: index)
                lastList = nil
                for device in Set(devices.map(ExactName.init)) { byDevice[device, default: []].append(Int32(index)) }
                return
            }
            let list = devices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            defer { lastList = list }
            if run != nil, list == lastList { return }
            let device = ExactName(devices[0])
            if run?.device == device { return }
            endRun(at: index)
            run = (device, index)
        }

        /// Files the run that ends before region `end`, if any.
        private mutating func endRun(at end: Int) {
            guard let run else { return }
            byDevice[run.device, default: []].append(contentsOf: Int32(run.start)..<Int32(end))
            self.run = nil
        }

        /// The ids in file order, the regions for every device, and each device's own regions.
        consuming func finish() -> (identifiers: [String], everyDevice: [Int32], byDevice: [ExactName: [Int32]]) {
            endRun(at: count)
            return (identifiers, everyDevice, byDevice)
        }
    }
}
