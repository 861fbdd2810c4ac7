import GeofenceKit

/// The devices of the snapshot a run continues, with an index of their names: the restore finds each device of the
/// run among them by name (``StateTranslation/lookups(_:)``), and the run's own snapshot finds, with the same index,
/// the devices the run did not see, which it carries over (``unseen(among:name:)``).
struct RestoredDevices: Sendable {
    let saved: StateSnapshot.SavedDevices
    /// Each name's position among the saved devices: the last one of the name, as a dictionary of the devices kept it.
    let positions: [ExactName: Int]
    /// A saved device that a later one of the same name hides, and that later one's position.
    private let hiddenBy: [Int: Int]

    /// No devices: a run that continues nothing.
    static let none = RestoredDevices(.decoded([]))

    init(_ saved: StateSnapshot.SavedDevices) {
        self.saved = saved
        var positions: [ExactName: Int] = [:]
        positions.reserveCapacity(saved.count)
        var hiddenBy: [Int: Int] = [:]
        for position in 0..<saved.count {
            if let earlier = positions.updateValue(position, forKey: ExactName(saved.name(at: position))) {
                hiddenBy[earlier] = position
            }
        }
        self.positions = positions
        self.hiddenBy = hiddenBy
    }

    /// The positions, in order, of the saved devices whose name none of the `count` devices `name` gives has (every
    /// device of a name, when one of them is seen): one lookup in the index a device, not a set of the run's names.
    func unseen(among count: Int, name: (Int) -> String) -> [Int] {
        guard saved.count > 0 else { return [] }
        var isSeen = [Bool](repeating: false, count: saved.count)
        for index in 0..<count {
            if let position = positions[ExactName(name(index))] { isSeen[position] = true }
        }
        // A hidden device is seen with the last one of its name, which comes after it.
        for (hidden, later) in hiddenBy.sorted(by: { $0.key > $1.key }) { isSeen[hidden] = isSeen[later] }
        return isSeen.indices.filter { !isSeen[$0] }
    }
}
