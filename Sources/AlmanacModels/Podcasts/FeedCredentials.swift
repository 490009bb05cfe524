/// A feed behind HTTP Basic authentication keeps its user name and password in its URL
/// (`https://alice:s3cret@host/feed.xml`), as gPodder and newsboat store them. The daemon
/// sends them to that origin only (scheme, host and port: `sameOrigin`); everything a person or another program sees — the bus,
/// the CLI, OPML exports, logs, error messages — shows the URL without the password
/// (`https://alice@host/feed.xml`).
public enum FeedCredentials {
    /// `url` without its password (the user name stays, so one sees the feed needs it).
    public static func redacted(_ url: String) -> String {
        guard let (start, end, userinfo) = userinfo(of: url), let colon = userinfo.firstIndex(of: ":") else { return url }
        return String(url[..<start]) + userinfo[..<colon] + "@" + String(url[end...])
    }

    /// `text` with the password of every URL in it left out (`http://alice:s3cret@host/` →
    /// `http://alice@host/`): for text that may quote an address, such as the title a feed
    /// without one was given before titles were made without passwords.
    public static func redactingURLs(in text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let separator = rest.firstRange(of: "://") {
            let start = separator.upperBound
            let end = rest[start...].firstIndex { "/?#\"'<> \t\n".contains($0) } ?? rest.endIndex
            let authority = rest[start..<end]
            result += rest[..<start]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result += authority[..<colon] + authority[at...]
            } else {
                result += authority
            }
            rest = rest[end...]
        }
        return result + rest
    }

    /// `url` without user name and password.
    public static func removed(from url: String) -> String {
        guard let (start, end, _) = userinfo(of: url) else { return url }
        return String(url[..<start]) + String(url[end...])
    }

    /// The user name and password in `url`, percent-decoded; `nil` when it has no user name.
    public static func of(_ url: String) -> (user: String, password: String)? {
        guard let (_, _, userinfo) = userinfo(of: url) else { return nil }
        let parts = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let user = parts[0].percentDecoded
        guard !user.isEmpty else { return nil }
        return (user, parts.count > 1 ? parts[1].percentDecoded : "")
    }

    /// `url` (http or https) with `user` and `password` as its user info, percent-encoded;
    /// any user info it had is replaced.
    public static func adding(user: String, password: String, to url: String) -> String {
        let bare = removed(from: url)
        guard let scheme = bare.firstIndex(of: ":"), bare[scheme...].hasPrefix("://") else { return url }
        let authority = bare.index(scheme, offsetBy: 3)
        return String(bare[..<authority]) + encoded(user) + ":" + encoded(password) + "@" + String(bare[authority...])
    }

    /// Whether `url` and `other` are of one origin — the same scheme, host and port (a port
    /// left out is the scheme's own: 80 for http, 443 for https): the only place a feed's
    /// password is sent again when the feed moves (`new-feed-url`, a permanent redirect) or
    /// pages (`rel="next"`). Not from https to http, nor to another port of the same host.
    public static func sameOrigin(_ url: String, _ other: String) -> Bool {
        guard let first = origin(of: url), let second = origin(of: other) else { return false }
        return first == second
    }

    /// The scheme, host and port of an http(s) `url` (lowercased; the port made explicit).
    static func origin(of url: String) -> (scheme: String, host: String, port: Int)? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        let scheme = url[..<colon].lowercased()
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: return nil
        }
        let start = url.index(colon, offsetBy: 3)
        var authority = url[start..<(url[start...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex)]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Substring = ""
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {  // [::1]:8080
            host = authority[...close]
            port = authority[authority.index(after: close)...].drop { $0 == ":" }
        } else if let portColon = authority.lastIndex(of: ":") {
            host = authority[..<portColon]
            port = authority[authority.index(after: portColon)...]
        }
        guard !host.isEmpty else { return nil }
        guard let number = port.isEmpty ? defaultPort : Int(port) else { return nil }
        return (scheme, host.lowercased(), number)
    }

    /// Where the user info of `url` starts and ends (its `@` included) and the text before the `@`.
    private static func userinfo(of url: String) -> (String.Index, String.Index, Substring)? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        let start = url.index(colon, offsetBy: 3)
        let authorityEnd = url[start...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        guard let at = url[start..<authorityEnd].lastIndex(of: "@") else { return nil }
        return (start, url.index(after: at), url[start..<at])
    }

    private static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return result
    }
}
