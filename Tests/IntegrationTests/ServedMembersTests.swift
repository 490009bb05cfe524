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
    /// Every `org.almanac.*` interface's introspection XML, from every kind of object the
    /// live daemon serves (a view of each document and a download job among them).
    static func servedInterfaces() async throws -> [String: String] {
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

        var served: [String: String] = [:]
        for path in [BusContract.rootPath, BusContract.documentPath(.weather), BusContract.documentPath(.podcasts),
                     weatherView, podcastsView, BusContract.syncPath, BusContract.playerPath, job] {
            let reply = try await client.connection.call(BusContract.serviceName, path: path, interface: .introspectable,
                                                         method: MemberName("Introspect"))
            let (xml) = try reply.arguments(String.self)
            for block in xml.matches(of: /<interface name="([^"]+)">(.*?)<\/interface>/.dotMatchesNewlines()) where block.1.hasPrefix("org.almanac.") {
                served[String(block.1)] = String(block.2)
            }
        }
        _ = daemon.stop()
        return served
    }

    @Test func everyInterfaceServesTheMembersTheContractDeclares() async throws {
        var served: [String: Set<String>] = [:]
        for (interface, xml) in try await Self.servedInterfaces() {
            served[interface] = Set(xml.matches(of: /<(?:method|signal|property) name="([^"]+)"/).map { String($0.1) })
        }
        let declared = try ContractNames.byInterface()
        #expect(Set(served.keys) == Set(declared.keys), "interfaces served vs declared")
        for interface in Set(served.keys).union(declared.keys).sorted() {
            let missing = (served[interface] ?? []).subtracting(declared[interface] ?? [])
            let unserved = (declared[interface] ?? []).subtracting(served[interface] ?? [])
            #expect(missing.isEmpty, "\(interface) serves members with no constant: \(missing.sorted())")
            #expect(unserved.isEmpty, "\(interface) declares members it does not serve: \(unserved.sorted())")
        }
    }

    /// docs/bus-api.md's signatures are the served ones (which the typed definitions make):
    /// each method's argument types and names and its reply's types, each signal's types, each
    /// property's type — as `Name(s location, u hours) | → aa{sv}` and `Units | property s` say.
    @Test func busAPIsSignaturesAreTheServedOnes() async throws {
        var served: [String: String] = [:]
        for (interface, xml) in try await Self.servedInterfaces() {
            for method in xml.matches(of: /<method name="(\w+)">(.*?)<\/method>/.dotMatchesNewlines()) {
                let arguments = method.2.matches(of: /<arg name="(\w+)" type="([^"]+)" direction="(in|out)"/)
                let inputs = arguments.filter { $0.3 == "in" }.map { "\($0.2) \($0.1)" }.joined(separator: ", ")
                let outputs = arguments.filter { $0.3 == "out" }.map { String($0.2) }.joined()
                served["\(interface) \(method.1)"] = "(\(inputs)) → \(outputs)"
            }
            for signal in xml.matches(of: /<signal name="(\w+)">(.*?)<\/signal>/.dotMatchesNewlines()) {
                let types = signal.2.matches(of: /<arg name="(\w+)" type="([^"]+)"/).map { "\($0.2) \($0.1)" }.joined(separator: ", ")
                served["\(interface) \(signal.1)"] = "signal (\(types))"
            }
            for property in xml.matches(of: /<property name="(\w+)" type="([^"]+)"/) {
                served["\(interface) \(property.1)"] = "property \(property.2)"
            }
        }
        let documented = try Self.documentedSignatures()
        #expect(documented.count > 80, "the page was read: \(documented.count)")
        for (member, signature) in documented.sorted(by: { $0.key < $1.key }) {
            #expect(served[member] == signature, "\(member): docs/bus-api.md says \(signature), the daemon serves \(served[member] ?? "nothing")")
        }
    }

    /// `interface member` → its signature as the member tables of docs/bus-api.md write it,
    /// in the form `busAPIsSignaturesAreTheServedOnes` makes of introspection.
    static func documentedSignatures() throws -> [String: String] {
        let text = try String(contentsOfFile: SourceTree.path("docs/bus-api.md"), encoding: .utf8)
        var result: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") {
                current = line.firstMatch(of: /^## `(org\.almanac\.\w+)`/).map { String($0.1) }
                continue
            }
            guard let current, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3 else { continue }
            if let call = cells[1].firstMatch(of: /^`(\w+)\(([^)]*)\)`$/) {
                let inside = String(call.2)
                if cells[2].hasPrefix("signal") {
                    result["\(current) \(call.1)"] = "signal (\(inside))"
                } else {
                    // `→ `aa{sv} page`` or `→ `(aa{sv} page, a{sv} info)``: the types, without names.
                    let reply = cells[2].firstMatch(of: /→ `\(?([^`]*?)\)?`/).map { String($0.1) } ?? ""
                    let types = reply.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != " " }) }.joined()
                    result["\(current) \(call.1)"] = "(\(inside)) → \(types)"
                }
            } else if let type = cells[2].firstMatch(of: /^propert(?:y|ies) `([^`]+)`/) {
                for name in cells[1].matches(of: /`(\w+)`/) { result["\(current) \(name.1)"] = "property \(type.1)" }
            }
        }
        return result
    }
}
