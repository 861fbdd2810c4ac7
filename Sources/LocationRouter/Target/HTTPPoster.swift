import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// POSTs bodies to one URL and says whether each was accepted (a 2xx answer): the client side of the target
/// loop (samples to the service under test, the reference service's events to its webhook).
public final class HTTPPoster: Sendable {
    private let session: URLSession
    private let url: URL
    private let contentType: String
    private let timeout: Double

    /// - Parameter connections: requests that may be in flight at once.
    public init(url: URL, contentType: String = "application/x-ndjson", connections: Int = 4, timeout: Double = 10) {
        let settings = URLSessionConfiguration.ephemeral
        settings.httpMaximumConnectionsPerHost = max(1, connections)
        settings.timeoutIntervalForRequest = timeout
        settings.timeoutIntervalForResource = timeout
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.httpCookieStorage = nil
        session = URLSession(configuration: settings)
        self.url = url
        self.contentType = contentType
        self.timeout = timeout
    }

    /// Sends `body`; `true` when the answer was 2xx.
    public func post(_ body: [UInt8]) async -> Bool {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            session.dataTask(with: request) { _, response, error in
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                continuation.resume(returning: error == nil && (200..<300).contains(status))
            }.resume()
        }
    }

    /// Lets the requests in flight finish, then releases the session.
    public func invalidate() {
        session.finishTasksAndInvalidate()
    }
}
