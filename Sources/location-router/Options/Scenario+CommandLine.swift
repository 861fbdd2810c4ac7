import LocationRouter

/// Command-line options override the config file, option by option, as ``RunOption/all`` lists them.
extension Scenario {
    mutating func apply(arguments: inout Arguments) throws(CommandError) {
        for option in RunOption.all {
            guard let flag = option.flag, let apply = option.applyArguments else { continue }
            let given: [String]
            if option.placeholder == nil {
                given = arguments.flag(flag) || option.aliases.contains(where: { arguments.flag($0) }) ? [""] : []
            } else {
                given = try arguments.values(flag)
            }
            if !given.isEmpty { try apply(&self, given) }
        }
        try checkCombinations()
    }

    /// Options that only make sense together, or not at all together.
    func checkCombinations() throws(CommandError) {
        if truth.target != nil && !compareProfiles.isEmpty {
            throw .usage("'--target' cannot be combined with '--compare-profiles': drive the service with one profile's run")
        }
        if (truth.target == nil) != (truth.listen == nil) {
            throw .usage(truth.target == nil ? "'--listen' needs '--target <url>'" : "'--target' needs '--listen <host:port>'")
        }
    }
}
