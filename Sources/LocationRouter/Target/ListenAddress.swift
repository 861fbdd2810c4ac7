/// `HOST:PORT` for a listening socket: an IPv4 address (or `localhost`) and a port (0 picks a free one).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// Dotted IPv4, such as `127.0.0.1` or `0.0.0.0`.
    public var host: String
    public var port: UInt16

    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host == "localhost" { host = "127.0.0.1" }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }),
            let port = UInt16(text[text.index(after: colon)...])
        else { return nil }
        self.host = host
        self.port = port
    }

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public var description: String { "\(host):\(port)" }
}
