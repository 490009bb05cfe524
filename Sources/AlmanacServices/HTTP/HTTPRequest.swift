import FoundationEssentials

/// One HTTP request as `CurlTransfer` sends it: no redirect is followed by libcurl itself
/// (`HTTPExchange` decides), and the waits are Almanac's (see `idleTimeout`).
struct HTTPRequest: Sendable {
    var method = "GET"
    var url: URL
    /// Sent as given, after `User-Agent`; a name set twice is sent twice.
    var headers: [(name: String, value: String)] = []
    var body: Data?
    /// Seconds without a byte from the server (connecting included) before the request fails.
    var idleTimeout: Double
    /// Seconds the whole request may take.
    var totalTimeout: Double
    /// Ask for compressed answers (whatever libcurl inflates) and inflate them as they come;
    /// off, the bytes are kept as the server sent them (a download resumed by offset).
    var decompress = true
    /// The addresses it may connect to, at every hop (`nil`: any).
    var reachLimit: ReachLimit?

    init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
         idleTimeout: Double, totalTimeout: Double, decompress: Bool = true) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.idleTimeout = idleTimeout
        self.totalTimeout = totalTimeout
        self.decompress = decompress
    }

    /// The value of header `name` (any case), the last one set.
    func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Sets header `name` (any case) to `value`, replacing what it had; `nil` removes it.
    mutating func setHeader(_ name: String, _ value: String?) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        if let value { headers.append((name, value)) }
    }
}
