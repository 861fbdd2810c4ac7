import GeofenceKit
import LocationRouter
import GeofenceFormats

/// Reading `config.json`: every key is checked, unknown keys and out-of-range values are errors naming the key
/// path (`source.speed.max: must be > 0`), and absent keys keep the built-in default. The keys and their rules
/// are ``RunOption/all``'s.
extension Scenario {
    mutating func apply(configJSON bytes: [UInt8]) throws(InputError) {
        var root = try JSONObjectReader(try JSONParser.parse(bytes), path: "")
        try read(&root, prefix: "")
        try root.finish()
    }

    /// Reads the keys under `prefix` (`""`, `source.`, …) from `object`, in the table's order: a key of this
    /// object directly, a nested object when the first of its keys comes up. Unread keys are then unknown.
    private mutating func read(_ object: inout JSONObjectReader, prefix: String) throws(InputError) {
        var nested: Set<Substring> = []
        for option in RunOption.all {
            guard let key = option.key, key.hasPrefix(prefix) else { continue }
            let rest = key.dropFirst(prefix.count)
            if let dot = rest.firstIndex(of: ".") {
                let name = rest[..<dot]
                guard nested.insert(name).inserted else { continue }
                guard var child = try object.object(String(name)) else { continue }
                try read(&child, prefix: prefix + name + ".")
                try child.finish()
            } else if let apply = option.applyConfig {
                try apply(&self, &object, String(rest))
            }
        }
    }
}
