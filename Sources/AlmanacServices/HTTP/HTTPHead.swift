import AlmanacCore
import AlmanacModels
import FoundationEssentials

/// The status line and header fields of an answer (not a 1xx one).
struct HTTPHead: Sendable {
    let status: Int
    /// Field names lower-cased; a field sent more than once has its values joined by ", ".
    let headers: [String: String]
    /// The address this answer is for (the last hop's, after redirects).
    let url: URL
    /// Whose network it came from: the address libcurl connected to, or through a proxy the
    /// URL's host as written (`AddressReach(writtenHost:)`); `nil` when libcurl did not say.
    /// After redirects (`HTTPExchange`), the reach every hop had, or else the internet.
    var reach: AddressReach?

    /// `Content-Length`, when the server said it.
    var expectedLength: UInt64? { headers["content-length"].flatMap { UInt64($0) } }

    /// Where a redirect (301, 302, 303, 307, 308) points, resolved against `url`; `nil` for
    /// any other answer, and for a redirect whose `Location` is no address (it is then the
    /// answer, as it is to a browser).
    var redirectTarget: URL? {
        guard [301, 302, 303, 307, 308].contains(status), let location = headers["location"] else { return nil }
        return URL(string: location, relativeTo: url)?.absoluteURL
    }

    /// The head of the fields libcurl handed over: `HTTP/1.1 200 OK` and then `Name: value`
    /// lines, each with its line break. `nil` when the status line is not HTTP's.
    init?(lines: [String], url: URL) {
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/") else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]), (100...999).contains(status) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmed
            guard !name.isEmpty else { continue }
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        self.status = status
        self.headers = headers
        self.url = url
    }
}
