import Glibc

/// Whose network an IP address is on, for the rule that a file a feed names (a transcript,
/// a chapters file) is fetched from the user's own computer or network only when the feed
/// itself is there (`ReachLimit`, docs/security.md). Decided on the address itself — the one
/// about to be connected to — never on a name.
public enum AddressReach: String, Sendable, Hashable, CaseIterable {
    /// Anywhere else: the internet.
    case `public`
    /// This computer: 127.0.0.0/8, ::1, and the unspecified 0.0.0.0/8 and :: (which reach it too).
    case loopback
    /// The link: 169.254.0.0/16 (where clouds answer with their metadata), fe80::/10.
    case linkLocal = "link-local"
    /// A private network: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, the carrier-grade NAT
    /// (and Tailscale) 100.64.0.0/10, unique-local fc00::/7 and the old site-local fec0::/10.
    case `private`
    /// Never connected to for a feed's file: multicast (224.0.0.0/4, ff00::/8), broadcast
    /// and the reserved 240.0.0.0/4.
    case special

    /// The reach of an IPv4 (4 bytes) or IPv6 (16 bytes) address in network order; `nil` for
    /// any other length. An IPv6 address that carries an IPv4 one — mapped (::ffff:a.b.c.d),
    /// compatible (::a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002::/16) — has the IPv4 one's.
    public init?(bytes: some Collection<UInt8>) {
        let b = Array(bytes)
        switch b.count {
        case 4: self = Self.reach(ipv4: b)
        case 16: self = Self.reach(ipv6: b)
        default: return nil
        }
    }

    /// The reach of an address written as text (`127.0.0.1`, `::1`, `[fe80::1]`); `nil`
    /// when it is not an IP address (a host name).
    public init?(text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
        } else if inet_pton(AF_INET6, String(text), &v6) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
        } else {
            return nil
        }
    }

    /// The reach a URL's host says by itself: an IP address's own, loopback for `localhost`
    /// and `*.localhost`, the internet for any other name (what it resolves to is not asked).
    public init(writtenHost host: String) {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") {
            self = .loopback
        } else {
            self = AddressReach(text: host) ?? .public
        }
    }

    /// In words, after "which is": "on this computer (loopback)".
    public var words: String {
        switch self {
        case .public: "on the internet"
        case .loopback: "on this computer (loopback)"
        case .linkLocal: "on the local link (link-local)"
        case .private: "on a private network"
        case .special: "a multicast or reserved address"
        }
    }

    private static func reach(ipv4 b: [UInt8]) -> AddressReach {
        switch (b[0], b[1]) {
        case (127, _), (0, _): .loopback
        case (169, 254): .linkLocal
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): .private
        case (224...255, _): .special
        default: .public
        }
    }

    private static func reach(ipv6 b: [UInt8]) -> AddressReach {
        let zeroes = b.prefix(10).allSatisfy { $0 == 0 }
        if zeroes, b[10] == 0xFF, b[11] == 0xFF { return reach(ipv4: Array(b[12...])) }   // ::ffff:a.b.c.d
        if zeroes, b[10] == 0, b[11] == 0 {
            // ::, ::1, and the compatible ::a.b.c.d
            return b[12...].allSatisfy { $0 == 0 } || Array(b[12...]) == [0, 0, 0, 1] ? .loopback : reach(ipv4: Array(b[12...]))
        }
        if Array(b.prefix(12)) == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return reach(ipv4: Array(b[12...])) }  // NAT64
        if b[0] == 0x20, b[1] == 0x02 { return reach(ipv4: Array(b[2...5])) }  // 6to4
        switch (b[0], b[1] & 0xC0) {
        case (0xFE, 0x80): return .linkLocal
        case (0xFE, 0xC0): return .private
        case (0xFC...0xFD, _): return .private
        case (0xFF, _): return .special
        default: return .public
        }
    }
}
