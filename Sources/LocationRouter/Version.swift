/// The version of LocationRouter, as `--version` and reports state it.
public enum LocationRouterVersion {
    public static let current = "0.1.0"
}
