// Soaks the DBus module for the leak check: 10,000 method calls (replies and error replies),
// 10,000 signals and 1,000 calls passing sealed memory files both ways (one in ten answered
// with a reply too large for the connection's limit) between two connections on the bus
// whose address is the argument, then closes both. Run under valgrind by
// scripts/leakcheck.sh; fails by itself when a descriptor is left open.
import DBus
import Dispatch
import Glibc

guard CommandLine.arguments.count == 2 else {
    print("usage: dbus-soak BUS-ADDRESS")
    exit(2)
}

// The soak runs in a detached task while the main thread waits on a semaphore: valgrind
// cannot follow `dispatch_main`, which an async top level would use.
let done = DispatchSemaphore(value: 0)
let address = CommandLine.arguments[1]
Task.detached {
    do {
        try await soak(address: address, rounds: 10_000)
    } catch {
        print("soak failed: \(error)")
        exit(1)
    }
    done.signal()
}
done.wait()

func soak(address: String, rounds: Int) async throws {
    let path = ObjectPath("/org/almanac/Soak")
    let interface = InterfaceName("org.almanac.Soak1")
    let tick = MemberName("Tick")

    let server = try await Connection.connect(to: address)
    let client = try await Connection.connect(to: address)
    try server.export([
        Interface("org.almanac.Soak1", methods: [
            Method("Echo", inputs: [Argument("value", .variant)], outputs: [Argument("value", .variant)]) { call, reply in
                let (value) = try call.arguments(Value.self)
                try reply.writeVariant(value)
            },
            Method("Fail") { _, _ in throw BusError.failed("on purpose") },
            Method("Mirror", inputs: [Argument("payload", .unixFD)], outputs: [Argument("payload", .unixFD)]) { call, reply in
                let (values) = try Message(payload: try call.arguments(UnixFD.self)).arguments([String: Value].self)
                try reply.write(try Message.payload { try values.encode(to: &$0) })
            },
            Method("Flood", outputs: [Argument("data", .array(.byte))]) { _, reply in
                try reply.writeBytes([UInt8](repeating: 1, count: 128 << 10))
            },
        ], properties: [Property("Rounds", .uint32) { .uint32(UInt32(rounds)) }]),
    ], at: path)

    let payload = Value.stringVariantDictionary(["text": .string("soak"), "numbers": .array(.int64, [.int64(1), .int64(2)])])
    var failures = 0
    for round in 0..<rounds {
        if round % 10 == 9 {
            do {
                _ = try await client.call(server.uniqueName, path: path, interface: interface, method: "Fail") { _ in }
            } catch is BusError {
                failures += 1
            }
        } else {
            let reply = try await client.call(server.uniqueName, path: path, interface: interface, method: "Echo") {
                try $0.writeVariant(payload)
            }
            guard try reply.arguments(Value.self) == payload else { fatalError("reply \(round) differs") }
        }
    }

    let stream = try await client.signals(matching: MatchRule(interface: interface, member: tick), bufferLimit: rounds)
    for round in 0..<rounds {
        try server.emit(path: path, interface: interface, signal: tick, arguments: UInt32(round), "payload")
    }
    var received = 0
    for await message in stream {
        _ = try message.arguments(UInt32.self, String.self)
        received += 1
        if received == rounds { break }
    }

    let openBefore = openDescriptors()
    server.maximumMessageSize = 64 << 10
    var mirrored = 0
    for round in 0..<rounds / 10 {
        if round % 10 == 9 {
            do {
                _ = try await client.call(server.uniqueName, path: path, interface: interface, method: "Flood") { _ in }
                fatalError("a reply over the limit was sent")
            } catch let error as BusError where error.name == .limitsExceeded {}
        } else {
            let sent = try Message.payload { try ["round": Value.int64(Int64(round)), "payload": payload].encode(to: &$0) }
            let reply = try await client.call(server.uniqueName, path: path, interface: interface, method: "Mirror", arguments: sent)
            let (values) = try Message(payload: try reply.arguments(UnixFD.self)).arguments([String: Value].self)
            guard values["round"] == .int64(Int64(round)) else { fatalError("payload \(round) differs") }
            mirrored += 1
        }
    }
    // Every copy of every descriptor is closed once its last message and value are gone.
    let openAfter = openDescriptors()
    guard openAfter <= openBefore else { fatalError("\(openAfter - openBefore) descriptors left open after passing payloads") }

    await client.close()
    await server.close()
    print("\(rounds) calls (\(failures) error replies), \(received) signals and \(mirrored) payloads by descriptor")
}

/// How many descriptors the process holds.
func openDescriptors() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return 0 }
    defer { closedir(directory) }
    var count = 0
    while readdir(directory) != nil { count += 1 }
    return count
}
