import DBus
import Foundation
import TestHarness
import Testing

/// Unix file descriptors (`h`) end to end: sealed memory files, descriptors passed both
/// ways and closed exactly once, payloads too large for a message, and the size guard that
/// keeps a connection on a bus with dbus-daemon's default limits.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DescriptorPassingTests {
    static let path = ObjectPath("/files")
    static let interfaceName = InterfaceName("org.almanac.Files1")

    /// `org.almanac.Files1`: methods that take, make and return descriptors and large answers.
    static func interface(connection: @escaping @Sendable () -> Connection?) throws -> Interface {
        try Interface("org.almanac.Files1", methods: [
            Method("Size", inputs: [Argument("file", .unixFD)], outputs: [Argument("bytes", .uint64)]) { call, reply in
                let (file) = try call.arguments(UnixFD.self)
                try reply.write(UInt64(try file.readAll(limit: 1 << 30).count))
            },
            Method("Sealed", inputs: [Argument("file", .unixFD)], outputs: [Argument("sealed", .boolean)]) { call, reply in
                try reply.write(try call.arguments(UnixFD.self).isSealed)
            },
            Method("Make", inputs: [Argument("count", .uint64), Argument("fill", .byte)], outputs: [Argument("file", .unixFD)]) { call, reply in
                let (count, fill) = try call.arguments(UInt64.self, UInt8.self)
                try reply.write(try UnixFD.sealedMemory(containing: [UInt8](repeating: fill, count: Int(count)), name: "almanac-test-make"))
            },
            Method("Echo", inputs: [Argument("file", .unixFD)], outputs: [Argument("file", .unixFD)]) { call, reply in
                try reply.write(try call.arguments(UnixFD.self))
            },
            Method("Payload", inputs: [Argument("items", .uint32)], outputs: [Argument("payload", .unixFD)]) { call, reply in
                let (items) = try call.arguments(UInt32.self)
                try reply.write(try Message.payload { writer in
                    try writer.write(UInt64(items))
                    try (0..<items).map { ["n": Value.uint32($0), "text": .string(String(repeating: "x", count: 1_000))] }.encode(to: &writer)
                })
            },
            Method("Big", inputs: [Argument("bytes", .uint64)], outputs: [Argument("data", .array(.byte))]) { call, reply in
                let (bytes) = try call.arguments(UInt64.self)
                try reply.writeBytes([UInt8](repeating: 7, count: Int(bytes)))
            },
            Method("Shout", inputs: [Argument("bytes", .uint64)]) { call, _ in
                let (bytes) = try call.arguments(UInt64.self)
                try connection()?.emit(path: Self.path, interface: Self.interfaceName, signal: "Loud",
                                       arguments: [UInt8](repeating: 7, count: Int(bytes)))
            },
        ], signals: [SignalDescription("Loud", arguments: [Argument("data", .array(.byte))])])
    }

    struct Pair {
        let bus: PrivateBus
        let server: Connection
        let client: Connection
        var serverName: BusName { server.uniqueName! }

        static func start(limits: BusLimits = .session) async throws -> Pair {
            let bus = try PrivateBus(limits: limits)
            let server = try await Connection.connect(to: bus.address)
            let client = try await Connection.connect(to: bus.address)
            try server.export([DescriptorPassingTests.interface { [weak server] in server }], at: DescriptorPassingTests.path)
            return Pair(bus: bus, server: server, client: client)
        }

        func call<each A: BusEncodable>(_ method: MemberName, timeout: Duration = Connection.defaultTimeout,
                                        _ arguments: repeat each A) async throws -> Message {
            try await client.call(serverName, path: DescriptorPassingTests.path, interface: DescriptorPassingTests.interfaceName,
                                  method: method, timeout: timeout, arguments: repeat each arguments)
        }

        func close() async {
            await client.close()
            await server.close()
            bus.stop()
        }
    }

    /// How many descriptors of this process are memory files called `name`: a unique name
    /// makes the count immune to other tests opening and closing descriptors meanwhile.
    static func openMemoryFiles(named name: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.count { entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)") else { return false }
            return target.hasPrefix("/memfd:\(name) ")
        }
    }

    // MARK: Sealed memory files

    @Test func aSealedMemoryFileHoldsItsBytesAndCannotChange() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let file = try UnixFD.sealedMemory(containing: bytes)
        #expect(file.isSealed)
        #expect(try file.readAll(limit: bytes.count) == bytes)
        // Written to, grown or shrunk: the kernel refuses.
        #expect(write(file.fileDescriptor, [UInt8(1)], 1) == -1 && errno == EPERM)
        #expect(ftruncate(file.fileDescriptor, 10) == -1 && errno == EPERM)
        // Read from its start whatever the shared offset says.
        #expect(lseek(file.fileDescriptor, 500, SEEK_SET) == 500)
        #expect(try file.readAll(limit: bytes.count).count == bytes.count)
        #expect(try UnixFD.sealedMemory(containing: []).readAll(limit: 0) == [])
    }

    @Test func readingIsBoundedAndOnlyForRegularFiles() throws {
        let file = try UnixFD.sealedMemory(containing: [UInt8](repeating: 1, count: 1_001))
        let tooBig = try #require(throws: BusError.self) { _ = try file.readAll(limit: 1_000) }
        #expect(tooBig.name == .limitsExceeded)
        #expect(tooBig.message.contains("1001 bytes") && tooBig.message.contains("1000"))

        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reader = UnixFD(taking: ends[0])
        let writer = UnixFD(taking: ends[1])
        let pipeError = try #require(throws: BusError.self) { _ = try reader.readAll(limit: 10) }
        #expect(pipeError.name == .invalidArgs)
        #expect(pipeError.message.contains("not a regular file"))
        #expect(!reader.isSealed)
        _ = writer
    }

    @Test func aPayloadMessageComesBackAsItWasWritten() throws {
        let items = (0..<2_000).map { ["n": Value.uint32(UInt32($0)), "title": .string("episode \($0)")] }
        let payload = try Message.payload { writer in
            try writer.write(UInt64(42))
            try items.encode(to: &writer)
        }
        #expect(payload.isSealed)
        let message = try Message(payload: payload)
        let (revision, decoded) = try message.arguments(UInt64.self, [[String: Value]].self)
        #expect(revision == 42)
        #expect(decoded == items)
        #expect(message.signature.rawValue == "taa{sv}")

        let tooBig = try #require(throws: BusError.self) { _ = try Message(payload: payload, limit: 100) }
        #expect(tooBig.name == .limitsExceeded)
        let notAMessage = try UnixFD.sealedMemory(containing: Array("not a message at all".utf8))
        #expect(throws: BusError.self) { _ = try Message(payload: notAMessage) }
    }

    // MARK: Over the bus

    @Test func descriptorsPassBothWaysAndAreClosedExactlyOnce() async throws {
        let pair = try await Pair.start()
        #expect(pair.client.canPassUnixFDs && pair.server.canPassUnixFDs)
        let name = "almanac-probe-\(UUID().uuidString.prefix(8))"
        do {
            let file = try UnixFD.sealedMemory(containing: [UInt8](repeating: 9, count: 70_000), name: name)
            for _ in 0..<50 {
                let (size) = try await pair.call("Size", file).arguments(UInt64.self)
                #expect(size == 70_000)
                let (echoed) = try await pair.call("Echo", file).arguments(UnixFD.self)
                #expect(echoed.fileDescriptor != file.fileDescriptor, "a descriptor of its own")
                #expect(try echoed.readAll(limit: 70_000).count == 70_000)
            }
            #expect(try await pair.call("Sealed", file).arguments(Bool.self))
            // The last call's copies go as its messages are released; the sender's stays.
            #expect(await eventually { Self.openMemoryFiles(named: name) == 1 }, "only the sender's own, while it holds it")
        }
        // Every copy — the message's, the handler's, the reply's, the client's — is closed.
        #expect(await eventually { Self.openMemoryFiles(named: name) == 0 })

        let (made) = try await pair.call("Make", UInt64(5), UInt8(ascii: "A")).arguments(UnixFD.self)
        #expect(made.isSealed)
        #expect(try made.readAll(limit: 5) == Array("AAAAA".utf8))
        await pair.close()
    }

    @Test func aPayloadTooLargeForTheBusTravelsAsADescriptor() async throws {
        let pair = try await Pair.start(limits: .daemonDefaults)
        // ~40 MB of a{sv}: more than the bus takes in one message, fine in a memory file.
        let (file) = try await pair.call("Payload", timeout: .seconds(480), UInt32(40_000)).arguments(UnixFD.self)
        let (count, items) = try Message(payload: file).arguments(UInt64.self, [[String: Value]].self)
        #expect(count == 40_000 && items.count == 40_000)
        #expect(items.last?["n"] == .uint32(39_999))
        #expect(pair.server.isConnected)
        await pair.close()
    }

    // MARK: The size guard

    @Test func aReplyOverTheBusLimitIsRefusedAndTheSenderStaysConnected() async throws {
        let pair = try await Pair.start(limits: .daemonDefaults)
        let error = try await #require(throws: BusError.self) { _ = try await pair.call("Big", timeout: .seconds(480), UInt64(40 << 20)) }
        #expect(error.name == .limitsExceeded)
        #expect(error.message.contains("The reply to Big would be"))
        #expect(error.message.contains("33554432 bytes (32.0 MiB)"))
        // Still on the bus, still answering: just under the limit goes through.
        #expect(pair.server.isConnected)
        let (data) = try await pair.call("Big", timeout: .seconds(480), UInt64(30 << 20)).arguments([UInt8].self)
        #expect(data.count == 30 << 20)
        await pair.close()
    }

    @Test func withoutTheGuardTheBusDisconnectsTheSender() async throws {
        // What the guard prevents, shown: the same reply with the limit raised past the bus's.
        let pair = try await Pair.start(limits: .daemonDefaults)
        pair.server.maximumMessageSize = 128 << 20
        _ = try? await pair.call("Big", timeout: .seconds(480), UInt64(40 << 20))
        await pair.server.waitUntilDisconnected()
        #expect(!pair.server.isConnected)
        await pair.close()
    }

    @Test func aSignalOverTheLimitIsNotSent() async throws {
        let pair = try await Pair.start(limits: .daemonDefaults)
        let error = try await #require(throws: BusError.self) { _ = try await pair.call("Shout", timeout: .seconds(480), UInt64(40 << 20)) }
        #expect(error.name == .limitsExceeded)
        #expect(error.message.contains("The signal org.almanac.Files1.Loud would be"))
        #expect(pair.server.isConnected)
        _ = try await pair.call("Shout", UInt64(1_000))
        await pair.close()
    }

    @Test func aCallOverTheLimitThrowsBeforeLeaving() async throws {
        let pair = try await Pair.start(limits: .daemonDefaults)
        pair.client.maximumMessageSize = 1 << 20
        #expect(pair.client.fitsInOneMessage(bodyLength: 1_000_000))
        #expect(!pair.client.fitsInOneMessage(bodyLength: 1 << 20))
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.call("Size", [UInt8](repeating: 0, count: 2 << 20))
        }
        #expect(error.name == .limitsExceeded)
        #expect(error.message.contains("The call to Size would be"))
        #expect(pair.client.isConnected)
        await pair.close()
    }

    // MARK: Other clients

    @Test func pythonDBusSendsAndReceivesDescriptors() async throws {
        let pair = try await Pair.start()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-fd-\(UUID().uuidString)")
        try Data(repeating: 65, count: 12_345).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import dbus, fcntl, os
            bus = dbus.bus.BusConnection("\(pair.bus.address)")
            files = dbus.Interface(bus.get_object("\(pair.serverName)", "/files"), "org.almanac.Files1")
            with open("\(file.path)", "rb") as f:
                print(int(files.Size(dbus.types.UnixFd(f))))
            fd = files.Make(dbus.UInt64(4), dbus.Byte(66)).take()
            print(os.pread(fd, 100, 0).decode(), fcntl.fcntl(fd, fcntl.F_GET_SEALS) == 15)
            os.close(fd)
            """
        let result = try await Tool.runDetached("/usr/bin/python3", ["-c", script])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output == "12345\nBBBB True\n")
        await pair.close()
    }

    @Test func busctlShowsADescriptorReply() async throws {
        let pair = try await Pair.start()
        let result = try await Tool.runDetached("busctl", ["--address=\(pair.bus.address)", "call", pair.serverName.rawValue,
                                                   "/files", "org.almanac.Files1", "Make", "ty", "3", "67"])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.hasPrefix("h "), "\(result.output)")
        await pair.close()
    }
}
