import Foundation

/// POSTs bodies to one URL and says whether each was accepted (a 2xx answer): the client side of the target
/// loop (samples to the service under test, the reference service's events to its webhook).
///
/// It goes through ``HTTPSSession`` (a `URLSession` in ``HTTPSLibrary``), for `http` URLs too, so the target loop
/// loads that library: ``unavailable`` says beforehand whether it can.
public final class HTTPPoster: Sendable {
    private let session: HTTPSSession?

    /// Why posting cannot work on this installation (the library is missing), or nil.
    public static var unavailable: String? {
        if case .failure(let error) = HTTPSLibrary.shared { return error.description }
        return nil
    }

    /// - Parameter connections: requests that may be in flight at once.
    public init(url: URL, contentType: String = "application/x-ndjson", connections: Int = 4, timeout: Double = 10) {
        session = try? HTTPSLibrary.shared.map {
            HTTPSSession(
                library: $0, url: url, contentType: contentType, timeout: timeout, connections: max(1, connections),
                refuseRedirects: false)
        }.get()
    }

    /// Sends `body`; `true` when the answer was 2xx (never without the library: see ``unavailable``).
    public func post(_ body: [UInt8]) async -> Bool {
        guard let session else { return false }
        if case .answered(let status, _) = await session.post(Data(body), deadline: 0) { return (200..<300).contains(status) }
        return false
    }

    /// Lets the requests in flight finish, then releases the session.
    public func invalidate() {
        session?.invalidate()
    }
}
