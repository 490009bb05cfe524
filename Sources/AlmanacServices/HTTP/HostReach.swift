import Dispatch
import FoundationEssentials
import Glibc

/// Where a request through a proxy goes, for its `ReachLimit`: libcurl connects to the proxy,
/// whose address says nothing of the request's, so the host in the URL is placed instead —
/// an IP address by itself, `localhost` (and `*.localhost`) as loopback, a name by every
/// address the system's resolver gives for it (getaddrinfo, as libcurl would have asked).
/// A name the resolver does not know here is left to the proxy: behind one, names are often
/// known only to it.
enum HostReach {
    /// Resolves names off the callers' threads (getaddrinfo blocks).
    private static let resolver = DispatchQueue(label: "almanac.http.resolve", attributes: .concurrent)

    /// Words for the first address of `url`'s host that `limit` does not allow ("127.0.0.1,
    /// which is on this computer (loopback)", "nas.local (192.168.1.5), which is on a
    /// private network"); `nil` when it allows them all.
    static func refusal(of url: URL, by limit: ReachLimit) async -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return "an address without a host" }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        if let reach = AddressReach(text: host) {
            return limit.allows(reach) ? nil : "\(host), which is \(reach.words)"
        }
        if host == "localhost" || host.hasSuffix(".localhost") {
            return limit.allows(.loopback) ? nil : "\(host), which is \(AddressReach.loopback.words)"
        }
        let resolved = await addresses(of: host)
        guard let refused = resolved.first(where: { !limit.allows($0.reach) }) else { return nil }
        return "\(host) (\(refused.text)), which is \(refused.reach.words)"
    }

    /// The addresses the system's resolver gives for `name`, as text with their reach; none
    /// when it knows none.
    static func addresses(of name: String) async -> [(text: String, reach: AddressReach)] {
        await withCheckedContinuation { continuation in
            resolver.async { continuation.resume(returning: resolve(name)) }
        }
    }

    private static func resolve(_ name: String) -> [(text: String, reach: AddressReach)] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var first: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &first) == 0 else { return [] }
        defer { freeaddrinfo(first) }
        var found: [(text: String, reach: AddressReach)] = []
        var next = first
        while let info = next?.pointee {
            next = info.ai_next
            guard let address = info.ai_addr else { continue }
            let bytes: [UInt8]
            switch info.ai_family {
            case AF_INET: bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
            case AF_INET6: bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
            default: continue
            }
            guard let reach = AddressReach(bytes: bytes) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let family = info.ai_family
            let shown = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) } == nil ? "an address"
                : String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            found.append((shown, reach))
        }
        return found
    }
}
