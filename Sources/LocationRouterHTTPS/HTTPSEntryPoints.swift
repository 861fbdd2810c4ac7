import Foundation

// The C entry points of the library, which the pipeline loads at run time (see `HTTPSLibrary` in
// LocationRouter) only when a URL needs TLS: FoundationNetworking and the ~30 libraries it brings (libcurl,
// OpenSSL, Kerberos, LDAP, ...) are then no part of the start of every other run. The types crossing the
// boundary are C types only, so the library and the executable share no Swift type.

/// Called once per request, on a thread of the session: `status` > 0 is an HTTP answer (`text` its
/// `Retry-After` value, if any), 0 a failure (`text` the reason), -1 a cancelled request, -2 a request whose
/// deadline passed. `text` is valid during the call only.
public typealias HTTPSCompletion = @convention(c) (
    _ context: UnsafeMutableRawPointer?, _ status: Int32, _ text: UnsafePointer<CChar>?
) -> Void

/// A session whose requests wait at most `timeout` seconds between bytes and keep at most `connections`
/// connections to the host. Returns a handle for the other entry points; ``location_router_https_session_end``
/// releases it.
@_cdecl("location_router_https_session_start")
public func location_router_https_session_start(
    _ timeout: Double, _ connections: Int, _ refuseRedirects: Bool
) -> UnsafeMutableRawPointer {
    let box = HTTPSSessionBox(timeout: timeout, connections: connections, refuseRedirects: refuseRedirects)
    return Unmanaged.passRetained(box).toOpaque()
}

/// `POST`s `count` bytes at `body` to `url` with the given `Content-Type`, ended after `deadline` seconds when
/// that is > 0. Returns a request handle for ``location_router_https_cancel``, which the caller releases with
/// ``location_router_https_release`` (before or after `completion` ran). Nil when `url` is not a URL: then
/// `completion` is not called.
@_cdecl("location_router_https_post")
public func location_router_https_post(
    _ session: UnsafeMutableRawPointer, _ url: UnsafePointer<CChar>, _ contentType: UnsafePointer<CChar>,
    _ body: UnsafePointer<UInt8>?, _ count: Int, _ deadline: Double, _ context: UnsafeMutableRawPointer?,
    _ completion: HTTPSCompletion
) -> UnsafeMutableRawPointer? {
    guard let target = URL(string: String(cString: url)) else { return nil }
    let box = Unmanaged<HTTPSSessionBox>.fromOpaque(session).takeUnretainedValue()
    let data = body.map { Data(bytes: $0, count: count) } ?? Data()
    let request = box.request(url: target, contentType: String(cString: contentType), body: data)
    // The context crosses threads as an integer: the caller owns what it points to until `completion` runs.
    let token = UInt(bitPattern: context)
    let exchange = HTTPSExchange(session: box.session, request: request, deadline: deadline) { end in
        let context = UnsafeMutableRawPointer(bitPattern: token)
        switch end {
        case .answered(let status, let retryAfter):
            if let retryAfter {
                retryAfter.withCString { completion(context, Int32(clamping: status), $0) }
            } else {
                completion(context, Int32(clamping: status), nil)
            }
        case .failed(let reason): reason.withCString { completion(context, 0, $0) }
        case .cancelled: completion(context, -1, nil)
        case .expired: completion(context, -2, nil)
        }
    }
    return Unmanaged.passRetained(exchange).toOpaque()
}

/// Cancels a request unless it has ended: its completion reports -1.
@_cdecl("location_router_https_cancel")
public func location_router_https_cancel(_ request: UnsafeMutableRawPointer) {
    Unmanaged<HTTPSExchange>.fromOpaque(request).takeUnretainedValue().cancel()
}

/// Releases a request handle.
@_cdecl("location_router_https_release")
public func location_router_https_release(_ request: UnsafeMutableRawPointer) {
    Unmanaged<HTTPSExchange>.fromOpaque(request).release()
}

/// Ends a session and releases its handle: with `cancel`, the requests in flight are cancelled; without, they
/// finish first.
@_cdecl("location_router_https_session_end")
public func location_router_https_session_end(_ session: UnsafeMutableRawPointer, _ cancel: Bool) {
    let box = Unmanaged<HTTPSSessionBox>.fromOpaque(session).takeRetainedValue()
    if cancel { box.session.invalidateAndCancel() } else { box.session.finishTasksAndInvalidate() }
}
