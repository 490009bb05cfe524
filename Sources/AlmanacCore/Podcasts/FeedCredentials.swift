/// A feed behind HTTP Basic authentication keeps its user name and password in its URL
/// (`https://alice:s3cret@host/feed.xml`), as gPodder and newsboat store them. The daemon
/// sends them to that host only; everything a person or another program sees — the bus,
/// the CLI, OPML exports, logs, error messages — shows the URL without the password
/// (`https://alice@host/feed.xml`).
public enum FeedCredentials {
    /// `url` without its password (the user name stays, so one sees the feed needs it).
    public static func redacted(_ url: String) -> String {
        guard let (start, end, userinfo) = userinfo(of: url), let colon = userinfo.firstIndex(of: ":") else { return url }
        return String(url[..<start]) + userinfo[..<colon] + "@" + String(url[end...])
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
