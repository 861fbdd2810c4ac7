/// A webhook URL that cannot be used, with the reason: a usage error, for the CLI to report as such (exit 64).
public struct WebhookConfigurationError: Error, Sendable, CustomStringConvertible {
    public var url: String
    public var message: String

    public var description: String { "webhook \(url): \(message)" }
}
