extension Double {
    /// A number as a command line writes it, in decimal (`12`, `0.5`, `1e3`, `-3`); `nil` for anything else.
    /// `Double(_:)` alone also reads hexadecimal (`0x10` is 16, `0x1p4` too), which an option's value never means.
    init?(decimal text: some StringProtocol) {
        guard !text.contains(where: { $0 == "x" || $0 == "X" }), let value = Double(String(text)) else { return nil }
        self = value
    }
}
