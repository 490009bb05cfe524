import DBus
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct ConnectionTests {
    @Test func connectsAndGetsAUniqueName() async throws {
        let bus = try PrivateBus()
        let connection = try await Connection.connect(to: bus.address)
        let name = try #require(connection.uniqueName)
        #expect(name.isUnique)
        #expect(connection.isConnected)
        await connection.close()
        #expect(!connection.isConnected)
    }

    @Test func connectingToNothingFailsWithAClearError() async throws {
        let error = try await #require(throws: BusError.self) {
            _ = try await Connection.connect(to: "unix:path=/nonexistent/almanac-test-socket")
        }
        #expect(error.code == .disconnected)
        #expect(!error.message.isEmpty)
    }

    @Test func callGetsTheReply() async throws {
        let pair = try await BusPair.start()
        let reply = try await pair.call("Echo") { try $0.write("hello, bus") }
        let (text) = try reply.arguments(String.self)
        #expect(text == "hello, bus")
        #expect(reply.type == .methodReturn)
        #expect(reply.sender == pair.serverName)
        let sum = try await pair.client.call(pair.serverName, path: TestObject.path, interface: TestObject.interfaceName,
                                             method: "Add", arguments: Int32.max, Int32(1))
        #expect(try sum.arguments(Int64.self) == Int64(Int32.max) + 1)
        await pair.close()
    }

    @Test func variantsComeBackAsTheyWent() async throws {
        let pair = try await BusPair.start()
        let value = Value.stringVariantDictionary(["a": .array(.string, [.string("x")]), "b": .structure([.int16(-2), .double(0.25)])])
        let reply = try await pair.call("EchoValue") { try $0.writeVariant(value) }
        #expect(try reply.arguments(Value.self) == value)
        await pair.close()
    }

    @Test func errorReplyCarriesItsNameAndMessage() async throws {
        let pair = try await BusPair.start()
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.call("Fail") { try $0.write("the reason") }
        }
        #expect(error.name.rawValue == "org.almanac.Error.Test")
        #expect(error.message == "the reason")
        #expect(error.code == .remote)
        let plain = try await #require(throws: BusError.self) { _ = try await pair.call("FailPlainly") }
        #expect(plain.name == .failed)
        #expect(plain.message == "something broke")
        await pair.close()
    }

    @Test func callTimesOutWithNoReply() async throws {
        let pair = try await BusPair.start()
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.call("Sleep", timeout: .milliseconds(100)) { try $0.write(UInt32(5_000)) }
        }
        #expect(error.name == .noReply)
        // The connection still works afterwards.
        let reply = try await pair.call("Echo") { try $0.write("still here") }
        #expect(try reply.arguments(String.self) == "still here")
        await pair.close()
    }

    @Test func cancellingTheTaskCancelsTheCall() async throws {
        let pair = try await BusPair.start()
        let task = Task {
            try await pair.call("Sleep") { try $0.write(UInt32(10_000)) }
        }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        await pair.close()
    }

    @Test func callOnAClosedConnectionFails() async throws {
        let pair = try await BusPair.start()
        await pair.client.close()
        let error = try await #require(throws: BusError.self) { _ = try await pair.call("Echo") { try $0.write("x") } }
        #expect(error.code == .disconnected)
        await pair.close()
    }

    @Test func callToANameNobodyOwnsFails() async throws {
        let pair = try await BusPair.start()
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(BusName("org.almanac.Nobody"), path: .root, interface: nil, method: "X") { _ in }
        }
        #expect(error.name == .serviceUnknown)
        await pair.close()
    }

    @Test func broadcastSignalsReachSubscribersInOrder() async throws {
        let pair = try await BusPair.start()
        let rule = MatchRule(sender: pair.serverName, interface: TestObject.interfaceName, member: "Tick")
        let stream = try await pair.client.signals(matching: rule)
        _ = try await pair.call("Emit") { try $0.write(UInt32(50)) }
        var received: [UInt32] = []
        for await message in stream {
            received.append(try message.arguments(UInt32.self))
            if received.count == 50 { break }
        }
        #expect(received == Array(1...50))
        #expect(stream.droppedCount == 0)
        await pair.close()
    }

    @Test func unicastSignalReachesOnlyItsDestination() async throws {
        let pair = try await BusPair.start()
        let third = try await Connection.connect(to: pair.bus.address)
        let member = MemberName("Private")
        let rule = MatchRule(interface: TestObject.interfaceName, member: member)
        let toClient = try await pair.client.signals(matching: rule)
        let toThird = try await third.signals(matching: rule)
        try pair.server.emit(path: TestObject.path, interface: TestObject.interfaceName, signal: member,
                             destination: pair.client.uniqueName, arguments: "for the client only")
        try pair.server.emit(path: TestObject.path, interface: TestObject.interfaceName, signal: member, arguments: "for everyone")

        var clientSaw: [String] = []
        for await message in toClient {
            clientSaw.append(try message.arguments(String.self))
            if clientSaw.count == 2 { break }
        }
        var thirdSaw: [String] = []
        for await message in toThird {
            thirdSaw.append(try message.arguments(String.self))
            break
        }
        #expect(clientSaw == ["for the client only", "for everyone"])
        #expect(thirdSaw == ["for everyone"])
        await third.close()
        await pair.close()
    }

    @Test func aSlowConsumerLosesTheOldestSignalsNotTheNewest() async throws {
        let pair = try await BusPair.start()
        let rule = MatchRule(interface: TestObject.interfaceName, member: "Tick")
        let stream = try await pair.client.signals(matching: rule, bufferLimit: 10)
        _ = try await pair.call("Emit") { try $0.write(UInt32(200)) }
        // A call made after the signals returns after they were all delivered to the stream.
        _ = try await pair.client.call(BusName.bus, path: ObjectPath("/org/freedesktop/DBus"), interface: .peer, method: "Ping") { _ in }
        try await Task.sleep(for: .milliseconds(100))
        var received: [UInt32] = []
        for await message in stream {
            received.append(try message.arguments(UInt32.self))
            if received.last == 200 { break }
        }
        #expect(received == Array(191...200))
        #expect(stream.droppedCount == 190)
        await pair.close()
    }

    @Test func nameOwnerChangesWhenThePeerLeaves() async throws {
        let pair = try await BusPair.start()
        let peer = try await Connection.connect(to: pair.bus.address)
        let peerName = try #require(peer.uniqueName)
        let changes = try await pair.client.nameOwnerChanges(of: peerName)
        await peer.close()
        var iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change.name == peerName)
        #expect(change.oldOwner == peerName)
        #expect(change.newOwner == nil)
        await pair.close()
    }

    @Test func requestAndReleaseAWellKnownName() async throws {
        let pair = try await BusPair.start()
        let name = BusName("org.almanac.TestName")
        let changes = try await pair.client.nameOwnerChanges(of: name)
        #expect(try await pair.server.requestName(name) == .primaryOwner)
        #expect(try await pair.server.requestName(name) == .alreadyOwner)
        #expect(try await pair.client.requestName(name, flags: .doNotQueue) == .exists)
        #expect(try await pair.client.nameOwner(of: name) == pair.serverName)

        // Calls through the well-known name reach the owner.
        let reply = try await pair.client.call(name, path: TestObject.path, interface: TestObject.interfaceName,
                                               method: "Echo", arguments: "by name")
        #expect(try reply.arguments(String.self) == "by name")

        #expect(try await pair.server.releaseName(name) == .released)
        #expect(try await pair.client.nameOwner(of: name) == nil)
        #expect(try await pair.server.releaseName(name) == .nonExistent)
        var iterator = changes.makeAsyncIterator()
        let acquired = try #require(await iterator.next())
        let released = try #require(await iterator.next())
        #expect(acquired.newOwner == pair.serverName && acquired.oldOwner == nil)
        #expect(released.oldOwner == pair.serverName && released.newOwner == nil)
        await pair.close()
    }

    @Test func signalsFilteredByAWellKnownSenderFollowItsOwner() async throws {
        let pair = try await BusPair.start()
        let name = BusName("org.almanac.Sender")
        #expect(try await pair.server.requestName(name) == .primaryOwner)
        let stream = try await pair.client.signals(matching: MatchRule(sender: name, member: "Tick"))
        let impostor = try await Connection.connect(to: pair.bus.address)
        try impostor.emit(path: TestObject.path, interface: TestObject.interfaceName, signal: "Tick", arguments: UInt32(999))
        _ = try await pair.call("Emit") { try $0.write(UInt32(1)) }
        var iterator = stream.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(try first.arguments(UInt32.self) == 1)
        #expect(first.sender == pair.serverName)
        await impostor.close()
        await pair.close()
    }

    @Test func losingTheBusEndsStreamsAndWakesWaiters() async throws {
        let bus = try PrivateBus()
        let connection = try await Connection.connect(to: bus.address)
        let stream = try await connection.signals(matching: MatchRule(member: "Never"))
        bus.kill()
        await connection.waitUntilDisconnected()
        #expect(!connection.isConnected)
        var count = 0
        for await _ in stream { count += 1 }
        #expect(count == 0)
        let error = try await #require(throws: BusError.self) {
            _ = try await connection.call(BusName.bus, path: ObjectPath("/"), interface: nil, method: "X") { _ in }
        }
        #expect(error.code == .disconnected)
    }

    @Test func unixFileDescriptorsPassBetweenProcesses() async throws {
        let pair = try await BusPair.start()
        let echo = try Interface("org.almanac.Files1", methods: [
            Method("Read", inputs: [Argument("file", .unixFD)], outputs: [Argument("text", .string)]) { call, reply in
                let (fd) = try call.message.arguments(UnixFDBox.self)
                let handle = FileHandle(fileDescriptor: fd.value.duplicate(), closeOnDealloc: true)
                try reply.write(String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
            },
        ])
        try pair.server.export([echo], at: ObjectPath("/files"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-fd-\(UUID().uuidString)")
        try "passed by descriptor".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forReadingFrom: file)
        let fd = try UnixFD(duplicating: handle.fileDescriptor)
        let reply = try await pair.client.call(pair.serverName, path: ObjectPath("/files"), interface: InterfaceName("org.almanac.Files1"),
                                               method: "Read", arguments: fd)
        #expect(try reply.arguments(String.self) == "passed by descriptor")
        await pair.close()
    }
}

/// Reads an `h` argument.
struct UnixFDBox: BusDecodable {
    let value: UnixFD
    init(from reader: inout MessageReader) throws { value = try reader.readUnixFD() }
}
