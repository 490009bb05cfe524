// The DBus module talking to itself on a private bus (run by `make demo` through
// scripts/demo.sh): a service that owns org.almanac.Demo, exports an object with a method,
// a property and a signal, and a client on a second connection that calls it, reads the
// property and listens to the signal.
import DBus

@main
struct Demo {
    static func main() async throws {
        let service = BusName("org.almanac.Demo")
        let path = ObjectPath("/org/almanac/Demo")
        let interface = InterfaceName("org.almanac.Demo1")
        let seconds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5

        let server = try await Connection.session()
        let ticks = Counter()
        try server.export([
            Interface("org.almanac.Demo1", methods: [
                Method("Greet", inputs: [Argument("name", .string)], outputs: [Argument("greeting", .string)]) { call, reply in
                    let (name) = try call.arguments(String.self)
                    guard !name.isEmpty else { throw BusError.invalidArgs("Say who to greet: the name is empty.") }
                    try reply.write("Hello, \(name)!")
                },
            ], properties: [
                Property("Ticks", .uint64) { .uint64(ticks.value) },
            ], signals: [
                SignalDescription("Tick", arguments: [Argument("count", .uint64)]),
            ]),
        ], at: path)
        guard try await server.requestName(service, flags: .doNotQueue) == .primaryOwner else {
            print("demo: org.almanac.Demo is taken on this bus")
            return
        }
        print("service  \(server.uniqueName!) owns \(service) and exports \(path)")

        let client = try await Connection.session()
        let greeting = try await client.call(service, path: path, interface: interface, method: MemberName("Greet"), arguments: "Almanac")
        print("client   Greet(\"Almanac\") -> \(try greeting.arguments(String.self))")
        do {
            _ = try await client.call(service, path: path, interface: interface, method: MemberName("Greet"), arguments: "")
        } catch let error as BusError {
            print("client   Greet(\"\") -> \(error.name): \(error.message)")
        }

        let stream = try await client.signals(matching: MatchRule(sender: service, interface: interface, member: MemberName("Tick")))
        let listener = Task {
            for await message in stream {
                print("client   Tick \(try message.arguments(UInt64.self))")
            }
        }
        for _ in 0..<(seconds * 2) {
            try await Task.sleep(for: .milliseconds(500))
            ticks.increment()
            try server.emit(path: path, interface: interface, signal: MemberName("Tick"), arguments: ticks.value)
            try server.emitPropertiesChanged(path: path, interface: interface, changed: ["Ticks": .uint64(ticks.value)])
        }
        let property = try await client.call(service, path: path, interface: .properties, method: MemberName("Get"),
                                             arguments: "org.almanac.Demo1", "Ticks")
        print("client   Ticks property = \(try property.arguments(Value.self))")
        _ = try await server.releaseName(service)
        await client.close()
        _ = await listener.result
        await server.close()
        print("service  released the name and closed")
    }
}

import Synchronization

final class Counter: Sendable {
    private let count = Atomic<UInt64>(0)
    var value: UInt64 { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}
