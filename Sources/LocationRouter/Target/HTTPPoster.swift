import Foundation

/// POSTs bodies to one URL and says whether each was accepted (a 2xx answer): the client side of the target
/// loop (samples to the service under test, the reference service's events to its webhook).
///
/// `http://` URLs go through ``PlainHTTPClient`` (a socket of its own: a malformed answer of the service under
/// test cannot end the process, and no library is loaded); `https://` URLs through ``HTTPSSession`` (a
/// `URLSession` in ``HTTPSLibrary``), which ``unavailable(for:)`` says beforehand whether it can load.
public final class HTTPPoster: Sendable {
    private enum Route: Sendable {
        case plain(PlainHTTPClient)
        case session(HTTPSSession)
        /// An `https` URL without the library: nothing can be posted.
        case none
    }

    private let route: Route

    /// Why posting to `url` cannot work on this installation (an `https` URL and the library is missing), or nil.
    public static func unavailable(for url: URL) -> String? {
        guard url.scheme?.lowercased() != "http", case .failure(let error) = HTTPSLibrary.shared else { return nil }
        return error.description
    }

    /// - Parameter connections: requests that may be in flight at once over `https` (over `http`, each request
    ///   has a connection of its own; the callers bound how many they send at once).
    public init(url: URL, contentType: String = "application/x-ndjson", connections: Int = 4, timeout: Double = 10) {
        if url.scheme?.lowercased() == "http" {
            route = .plain(PlainHTTPClient(url: url, timeout: timeout, contentType: contentType))
        } else if case .success(let library) = HTTPSLibrary.shared {
            route = .session(
                HTTPSSession(
                    library: library, url: url, contentType: contentType, timeout: timeout,
                    connections: max(1, connections), refuseRedirects: false))
        } else {
            route = .none
        }
    }

    /// Sends `body`; `true` when the answer was 2xx (never for an `https` URL without the library: see
    /// ``unavailable(for:)``).
    public func post(_ body: [UInt8]) async -> Bool {
        switch route {
        case .plain(let client):
            if case .answered(let head, _) = await client.post(Data(body)) { return (200..<300).contains(head.status) }
            return false
        case .session(let session):
            if case .answered(let status, _) = await session.post(Data(body), deadline: 0) {
                return (200..<300).contains(status)
            }
            return false
        case .none:
            return false
        }
    }

    /// Lets the requests in flight finish, then releases the session.
    public func invalidate() {
        if case .session(let session) = route { session.invalidate() }
    }
}
