import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSession` behind one session handle of the C entry points.
///
/// The session is ephemeral (no cookies, cache or credentials persist between runs). Its own timeouts get whole
/// seconds, since FoundationNetworking times a sub-second timeout out at once; each request's deadline enforces
/// the exact value (see ``HTTPSExchange``).
final class HTTPSSessionBox: Sendable {
    let session: URLSession

    init(timeout: Double, connections: Int, refuseRedirects: Bool) {
        let settings = URLSessionConfiguration.ephemeral
        settings.httpMaximumConnectionsPerHost = max(connections, 1)
        let sessionTimeout = max(1, timeout.rounded(.up))
        settings.timeoutIntervalForRequest = sessionTimeout
        settings.timeoutIntervalForResource = sessionTimeout
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.httpCookieStorage = nil
        session = URLSession(configuration: settings, delegate: refuseRedirects ? RedirectRefusal() : nil, delegateQueue: nil)
    }

    func request(url: URL, contentType: String, body: Data) -> URLRequest {
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: session.configuration.timeoutIntervalForRequest)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return request
    }
}

/// Answers every redirect with "do not follow": a redirected `POST` may be re-sent as a `GET` without its
/// body, which would count as delivered while the events went nowhere. The 3xx answer is then final.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
