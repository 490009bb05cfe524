import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The live daemon serves, on each of our interfaces, exactly the members
/// `BusContract+Names.swift` declares for it: no member without a constant, no constant
/// without a member. Introspection is the daemon's own account of its tables, so this is
/// where a table and the contract meet (issue 31).
@Suite(.onTestThreads, .timeLimit(.hang)) struct ServedMembersTests {
    @Test func everyInterfaceServesTheMembersTheContractDeclares() async throws {
        let bus = try PrivateBus()
        let feed = try AudioFeed()
        // The transfer stalls, so the download job stays on the bus while it is introspected.
        try feed.publish([("Stalled", "/audio/s?size=2000000&stall=100000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let client = try await AlmanacClient.connect(address: bus.address)
        let weatherView = try await client.addView(.weather, options: ["location": .string("Berlin")])
        let podcastsView = try await client.addView(.podcasts, options: [:])
        let job = try await client.download(try #require(episodes["Stalled"]))

        var served: [String: Set<String>] = [:]
        for path in [BusContract.rootPath, BusContract.documentPath(.weather), BusContract.documentPath(.podcasts),
                     weatherView, podcastsView, BusContract.syncPath, BusContract.playerPath, job] {
            let reply = try await client.connection.call(BusContract.serviceName, path: path, interface: .introspectable,
                                                         method: MemberName("Introspect"))
            let (xml) = try reply.arguments(String.self)
            for (interface, members) in Self.members(in: xml) where interface.hasPrefix("org.almanac.") {
                served[interface, default: []].formUnion(members)
            }
        }
        let declared = try ContractNames.byInterface()
        #expect(Set(served.keys) == Set(declared.keys), "interfaces served vs declared")
        for interface in Set(served.keys).union(declared.keys).sorted() {
            let missing = (served[interface] ?? []).subtracting(declared[interface] ?? [])
            let unserved = (declared[interface] ?? []).subtracting(served[interface] ?? [])
            #expect(missing.isEmpty, "\(interface) serves members with no constant: \(missing.sorted())")
            #expect(unserved.isEmpty, "\(interface) declares members it does not serve: \(unserved.sorted())")
        }
        _ = daemon.stop()
    }

    /// Interface name → its method, signal and property names, from introspection XML.
    static func members(in xml: String) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for block in xml.matches(of: /<interface name="([^"]+)">(.*?)<\/interface>/.dotMatchesNewlines()) {
            let names = block.2.matches(of: /<(?:method|signal|property) name="([^"]+)"/).map { String($0.1) }
            result[String(block.1), default: []].formUnion(names)
        }
        return result
    }
}
