import FoundationEssentials
import Glibc

/// The proxy a request goes through, chosen from the environment as libcurl chooses: for
/// http `http_proxy` (lower case only, as libcurl has it), for https `https_proxy` or
/// `HTTPS_PROXY`; else `all_proxy` or `ALL_PROXY`; none for a host that `no_proxy` (or
/// `NO_PROXY`) names — `*` for all, else host names (a name matches itself and its
/// subdomains, leading and trailing dots aside) and IP addresses with an optional
/// `/bits`, separated by commas. An empty variable is no variable.
///
/// `CurlTransfer` tells libcurl the choice (`CURLOPT_PROXY`, and an empty `CURLOPT_NOPROXY`
/// so libcurl does not choose again), so whether a request went through a proxy is ours to
/// know: the address connected to is then the proxy's, which says nothing of where the
/// request went (`FeedReach`, `ReachLimit`; docs/security.md).
struct ProxyChoice: Sendable {
    let environment: [String: String]

    /// The choice from this process's environment, read once.
    static let current = ProxyChoice(environment: ProcessInfo.processInfo.environment)

    /// The proxy for `url`, as written in the environment (`http://127.0.0.1:3128`,
    /// `socks5h://…`); `nil` when it goes direct.
    func proxy(for url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return nil }
        if Self.bypasses(host, noProxy: value("no_proxy") ?? value("NO_PROXY")) { return nil }
        // libcurl never reads HTTP_PROXY: in CGI programs a request's `Proxy:` header sets it.
        let own = value(scheme + "_proxy") ?? (scheme == "http" ? nil : value(scheme.uppercased() + "_PROXY"))
        return own ?? value("all_proxy") ?? value("ALL_PROXY")
    }

    private func value(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether `noProxy` names `host`: libcurl's rules (its `Curl_check_noproxy`).
    static func bypasses(_ host: String, noProxy: String?) -> Bool {
        guard let noProxy, !noProxy.isEmpty else { return false }
        if noProxy == "*" { return true }
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        let address = AddressBytes(String(name))
        if address == nil, name.hasSuffix(".") { name = name.dropLast() }
        // Patterns are separated by commas, blanks around them ignored; as libcurl reads the
        // list, one that a blank, not a comma, follows ends it.
        var rest = Substring(noProxy)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let pattern = rest.prefix { $0 != " " && $0 != "\t" && $0 != "," }
            rest = rest.dropFirst(pattern.count).drop { $0 == " " || $0 == "\t" }
            if !pattern.isEmpty, matches(pattern, name: name, address: address) { return true }
            guard rest.first == "," else { return false }
            rest = rest.drop { $0 == "," }
        }
        return false
    }

    private static func matches(_ pattern: Substring, name: Substring, address: AddressBytes?) -> Bool {
        if let address {
            let parts = pattern.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let network = AddressBytes(String(parts[0])), network.bytes.count == address.bytes.count else { return false }
            let bits = parts.count == 2 ? Int(parts[1]) ?? -1 : network.bytes.count * 8
            return address.isIn(network, bits: bits == 0 ? network.bytes.count * 8 : bits)
        }
        var pattern = pattern
        if pattern.hasSuffix(".") { pattern = pattern.dropLast() }
        if pattern.hasPrefix(".") { pattern = pattern.dropFirst() }
        guard !pattern.isEmpty else { return false }
        let (host, wanted) = (name.lowercased(), pattern.lowercased())
        return host == wanted || host.hasSuffix("." + wanted)
    }

    /// An IP address as its bytes (4 or 16), for comparing with a network.
    private struct AddressBytes {
        let bytes: [UInt8]

        init?(_ text: String) {
            var v4 = in_addr(), v6 = in6_addr()
            if inet_pton(AF_INET, text, &v4) == 1 {
                bytes = withUnsafeBytes(of: &v4) { Array($0) }
            } else if inet_pton(AF_INET6, text, &v6) == 1 {
                bytes = withUnsafeBytes(of: &v6) { Array($0) }
            } else {
                return nil
            }
        }

        /// Whether its first `bits` bits are `network`'s (`bits` past the address: no).
        func isIn(_ network: AddressBytes, bits: Int) -> Bool {
            guard (0...bytes.count * 8).contains(bits) else { return false }
            let whole = bits / 8, rest = bits % 8
            guard bytes.prefix(whole) == network.bytes.prefix(whole) else { return false }
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return bytes[whole] & mask == network.bytes[whole] & mask
        }
    }
}
