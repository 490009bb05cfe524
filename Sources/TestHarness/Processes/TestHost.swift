import Foundation

/// A host of the tests' own on a network of its own, for what the daemon does with an address
/// that is not on the user's computer or network: a network namespace joined to this one by a
/// veth pair, each end with an address of TEST-NET-3 (203.0.113.0/24, RFC 5737), which Almanac
/// counts as the internet (docs/security.md). Traffic to it never leaves this machine. A
/// fixture server runs there with `FixtureServer(script:arguments:on:)`.
///
/// Needs root (CAP_NET_ADMIN) and `ip` (iproute2), as `make test` and CI have them; without
/// them `init` throws, saying so — a test that needs a host fails rather than pass unseen.
/// Removed (namespace and links) when the value goes away; one left by a test process that
/// was killed (the suite's time limit) is removed by the next `init`, which finds its owner
/// gone (the link's alias names it: `almanac-test pid N`).
public final class TestHost: Sendable {
    /// The host's address, such as `203.0.113.6`.
    public let address: String
    /// The network namespace's name.
    private let namespace: String
    /// The veth end in this namespace.
    private let link: String

    /// Hosts at once on one machine, at most: 203.0.113.0/24 cut into /30s.
    private static let slots = 64

    /// Makes a host in the first free slot, after removing those whose test process is gone.
    public init() throws {
        Self.removeOrphans()
        // A slot is taken by creating its link, which fails when another test (of this or
        // another test process) holds it.
        let start = Int(getpid()) % Self.slots
        var firstFailure: (any Error)?
        for offset in 0..<Self.slots {
            let slot = (start + offset) % Self.slots
            let link = "almt\(slot)h", namespace = "almanac-test-\(slot)"
            do {
                try Self.ip(["link", "add", link, "type", "veth", "peer", "name", "almt\(slot)n"])
            } catch {
                firstFailure = firstFailure ?? error
                continue
            }
            let (near, far) = ("203.0.113.\(slot * 4 + 1)", "203.0.113.\(slot * 4 + 2)")
            do {
                try Self.ip(["link", "set", "dev", link, "alias", "\(Self.owner) pid \(getpid())"])
                _ = try? Self.ip(["netns", "delete", namespace])  // left by a test process that was killed
                try Self.ip(["netns", "add", namespace])
                try Self.ip(["link", "set", "almt\(slot)n", "netns", namespace])
                try Self.ip(["addr", "add", near + "/30", "dev", link])
                try Self.ip(["link", "set", link, "up"])
                try Self.ip(["netns", "exec", namespace, "ip", "addr", "add", far + "/30", "dev", "almt\(slot)n"])
                try Self.ip(["netns", "exec", namespace, "ip", "link", "set", "almt\(slot)n", "up"])
                try Self.ip(["netns", "exec", namespace, "ip", "link", "set", "lo", "up"])
            } catch {
                _ = try? Self.ip(["netns", "delete", namespace])
                _ = try? Self.ip(["link", "delete", link])
                throw error
            }
            (self.address, self.namespace, self.link) = (far, namespace, link)
            return
        }
        throw HarnessError(message: "no test host could be made: ip link add failed for all \(Self.slots) slots (it needs root and iproute2; see docs/test-harness.md); the first failure: \(firstFailure.map { "\($0)" } ?? "none")")
    }

    /// What each host's link says of its owner, before `pid N`.
    private static let owner = "almanac-test"

    /// Removes the hosts (link and namespace) whose test process is gone: one killed by the
    /// suite's time limit never ran its `deinit`. A link without our alias is left alone.
    static func removeOrphans() {
        guard let listing = try? ip(["-j", "link", "show"]),
              let links = try? JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]] else { return }
        for link in links {
            guard let name = link["ifname"] as? String, name.hasPrefix("almt"), name.hasSuffix("h"),
                  let slot = Int(name.dropFirst(4).dropLast()), let alias = link["ifalias"] as? String,
                  alias.hasPrefix(owner + " pid "), let pid = pid_t(alias.dropFirst(owner.count + 5)),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = try? ip(["netns", "delete", "almanac-test-\(slot)"])
            _ = try? ip(["link", "delete", name])
        }
    }

    deinit {
        _ = try? Self.ip(["netns", "delete", namespace])
        _ = try? Self.ip(["link", "delete", link])
    }

    /// `ip`'s arguments that run `arguments` (a program and its arguments) on the host.
    func command(_ arguments: [String]) -> [String] {
        ["netns", "exec", namespace] + arguments
    }

    /// iproute2's `ip`, which a user's PATH may leave out (it is in /usr/sbin).
    static let program = FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") ? "/usr/sbin/ip" : "ip"

    /// Runs `ip arguments`; throws with what it said when it fails.
    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        let result = try Tool.run(program, arguments, timeout: 30)
        guard result.status == 0 else {
            throw HarnessError(message: "ip \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.errorOutput.trimmingCharacters(in: .whitespacesAndNewlines)); a test host needs root and iproute2")
        }
        return result.output
    }
}
