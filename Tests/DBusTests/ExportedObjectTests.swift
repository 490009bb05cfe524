import DBus
import Foundation
import FoundationXML
import Locking
import Synchronization
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct ExportedObjectTests {
    func callStandard(_ pair: BusPair, _ interface: InterfaceName, _ method: String, at path: ObjectPath = TestObject.path,
                      body: (inout MessageWriter) throws -> Void = { _ in }) async throws -> Message {
        try await pair.client.call(pair.serverName, path: path, interface: interface, method: MemberName(method), body: body)
    }

    @Test func introspectionDescribesTheObject() async throws {
        let pair = try await BusPair.start()
        let reply = try await callStandard(pair, .introspectable, "Introspect")
        let xml = try reply.arguments(String.self)
        #expect(xml.hasPrefix("<!DOCTYPE node PUBLIC"))
        #expect(xml.contains("<interface name=\"org.almanac.Test1\">"))
        #expect(xml.contains("<method name=\"Add\">\n   <arg name=\"a\" type=\"i\" direction=\"in\"/>"))
        #expect(xml.contains("<signal name=\"Tick\">\n   <arg name=\"count\" type=\"u\"/>"))
        #expect(xml.contains("<property name=\"Label\" type=\"s\" access=\"readwrite\"/>"))
        #expect(xml.contains("<interface name=\"org.freedesktop.DBus.Properties\">"))
        #expect(xml.contains("<interface name=\"org.freedesktop.DBus.Peer\">"))
        // Parent nodes list their children so tools can walk the tree.
        let root = try await callStandard(pair, .introspectable, "Introspect", at: .root).arguments(String.self)
        #expect(root.contains("<node name=\"org\"/>"))
        let middle = try await callStandard(pair, .introspectable, "Introspect", at: ObjectPath("/org/almanac")).arguments(String.self)
        #expect(middle.contains("<node name=\"Test\"/>"))
        #expect(!middle.contains("org.almanac.Test1"))
        // The XML is well-formed.
        _ = try XMLDocument(xmlString: xml)
        await pair.close()
    }

    @Test func propertiesCanBeReadWrittenAndListed() async throws {
        let pair = try await BusPair.start()
        let changes = try await pair.client.signals(matching: MatchRule(interface: .properties, member: "PropertiesChanged", path: TestObject.path))
        let label = try await callStandard(pair, .properties, "Get") { try $0.write(arguments: "org.almanac.Test1", "Label") }
        let labelValue = try label.arguments(DBus.Value.self)
        #expect(labelValue == DBus.Value.string("initial"))

        _ = try await callStandard(pair, .properties, "Set") { writer in
            try writer.write(arguments: "org.almanac.Test1", "Label")
            try writer.writeVariant(.string("renamed"))
        }
        #expect(pair.object.label.withLock { $0 } == "renamed")

        let all = try await callStandard(pair, .properties, "GetAll") { try $0.write("org.almanac.Test1") }
        let allValues = try all.arguments([String: DBus.Value].self)
        let expected: [String: DBus.Value] = ["Label": .string("renamed"), "Count": .uint32(0)]
        #expect(allValues == expected)

        // Set announces the new value.
        var iterator = changes.makeAsyncIterator()
        let changed = try #require(await iterator.next())
        let (interface, values, invalidated) = try changed.arguments(String.self, [String: DBus.Value].self, [String].self)
        #expect(interface == "org.almanac.Test1")
        #expect(values == ["Label": .string("renamed")])
        #expect(invalidated.isEmpty)
        await pair.close()
    }

    @Test func badPropertyAccessGetsTheRightErrors() async throws {
        let pair = try await BusPair.start()
        func error(_ method: String, _ body: @escaping (inout MessageWriter) throws -> Void) async throws -> BusError {
            try await #require(throws: BusError.self) { _ = try await callStandard(pair, .properties, method, body: body) }
        }
        #expect(try await error("Get") { try $0.write(arguments: "org.almanac.Test1", "Nope") }.name == .unknownProperty)
        #expect(try await error("Get") { try $0.write(arguments: "org.almanac.Nope1", "Label") }.name == .unknownInterface)
        #expect(try await error("Get") { try $0.write("only one") }.name == .invalidArgs)
        let readOnly = try await error("Set") { w in try w.write(arguments: "org.almanac.Test1", "Count"); try w.writeVariant(.uint32(5)) }
        #expect(readOnly.name == .propertyReadOnly)
        let wrongType = try await error("Set") { w in try w.write(arguments: "org.almanac.Test1", "Label"); try w.writeVariant(.uint32(5)) }
        #expect(wrongType.name == .invalidArgs)
        #expect(wrongType.message.contains("type 's'"))
        let refused = try await error("Set") { w in try w.write(arguments: "org.almanac.Test1", "Label"); try w.writeVariant(.string("")) }
        #expect(refused.message == "Label cannot be empty.")
        #expect(pair.object.label.withLock { $0 } == "initial")
        await pair.close()
    }

    @Test func unknownTargetsGetTheStandardErrors() async throws {
        let pair = try await BusPair.start()
        let method = try await #require(throws: BusError.self) { _ = try await pair.call("Nope") }
        #expect(method.name == .unknownMethod)
        let interface = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(pair.serverName, path: TestObject.path, interface: InterfaceName("org.almanac.Nope1"), method: "Echo") { _ in }
        }
        #expect(interface.name == .unknownInterface)
        let object = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(pair.serverName, path: ObjectPath("/nowhere"), interface: TestObject.interfaceName, method: "Echo") { _ in }
        }
        #expect(object.name == .unknownObject)
        #expect(object.message == "No object is exported at /nowhere.")
        await pair.close()
    }

    @Test func wrongArgumentsAreRefusedBeforeTheHandlerRuns() async throws {
        let pair = try await BusPair.start()
        let error = try await #require(throws: BusError.self) { _ = try await pair.call("Add") { try $0.write("one") } }
        #expect(error.name == .invalidArgs)
        #expect(error.message == "Add takes arguments of type 'ii', not 's'.")
        let none = try await #require(throws: BusError.self) { _ = try await pair.call("Echo") }
        #expect(none.name == .invalidArgs)
        await pair.close()
    }

    @Test func standardMethodsThatTakeNothingRefuseArguments() async throws {
        let pair = try await BusPair.start()
        let root = ObjectPath("/org/almanac")
        pair.server.addObjectManager(at: root)
        let managed = try await #require(throws: BusError.self) {
            _ = try await callStandard(pair, .objectManager, "GetManagedObjects", at: root) { try $0.write(UInt32(7)) }
        }
        #expect(managed.name == .invalidArgs)
        #expect(managed.message == "GetManagedObjects takes no arguments, not 'u'.")
        let introspect = try await #require(throws: BusError.self) {
            _ = try await callStandard(pair, .introspectable, "Introspect") { try $0.write("extra") }
        }
        #expect(introspect.name == .invalidArgs)
        #expect(try await callStandard(pair, .objectManager, "GetManagedObjects", at: root).signature.rawValue == "a{oa{sa{sv}}}")
        await pair.close()
    }

    @Test func methodsWithoutAnInterfaceAreFound() async throws {
        let pair = try await BusPair.start()
        let reply = try await pair.client.call(pair.serverName, path: TestObject.path, interface: nil, method: "Echo", arguments: "loose")
        #expect(try reply.arguments(String.self) == "loose")
        await pair.close()
    }

    @Test func peerInterfaceAnswers() async throws {
        let pair = try await BusPair.start()
        _ = try await callStandard(pair, .peer, "Ping")
        let id = try await callStandard(pair, .peer, "GetMachineId").arguments(String.self)
        #expect(id.count == 32)
        await pair.close()
    }

    @Test func objectManagerListsAndAnnouncesObjects() async throws {
        let pair = try await BusPair.start()
        let root = ObjectPath("/org/almanac")
        pair.server.addObjectManager(at: root)
        let managerSignals = try await pair.client.signals(matching: MatchRule(interface: .objectManager, path: root))

        let listed = try await callStandard(pair, .objectManager, "GetManagedObjects", at: root)
        let objects = try listed.arguments([ObjectPath: [String: [String: DBus.Value]]].self)
        #expect(objects[TestObject.path]?["org.almanac.Test1"]?["Label"] == .string("initial"))

        let child = ObjectPath("/org/almanac/Test/child")
        let extra = try Interface("org.almanac.Extra1", properties: [Property("Answer", .int32) { .int32(42) }])
        try pair.server.export([extra], at: child)
        try pair.server.unexport(child)

        var iterator = managerSignals.makeAsyncIterator()
        let added = try #require(await iterator.next())
        #expect(added.member?.rawValue == "InterfacesAdded")
        let (addedPath, interfaces) = try added.arguments(ObjectPath.self, [String: [String: DBus.Value]].self)
        #expect(addedPath == child)
        #expect(interfaces == ["org.almanac.Extra1": ["Answer": .int32(42)]])
        let removed = try #require(await iterator.next())
        #expect(removed.member?.rawValue == "InterfacesRemoved")
        let (removedPath, names) = try removed.arguments(ObjectPath.self, [String].self)
        #expect(removedPath == child && names == ["org.almanac.Extra1"])

        let after = try await callStandard(pair, .objectManager, "GetManagedObjects", at: root).arguments([ObjectPath: [String: [String: DBus.Value]]].self)
        #expect(after[child] == nil)
        await pair.close()
    }

    @Test func aWaitingAsyncHandlerDoesNotHoldUpOtherCalls() async throws {
        let pair = try await BusPair.start()
        async let waiting = pair.call("WaitForRelease")
        // Only another call can release the waiting one: if the async handler held up the
        // connection, this call would never be answered (and would time out, failing).
        try await Task.sleep(for: .milliseconds(50))
        _ = try await pair.call("Release", timeout: .seconds(10))
        #expect(try await waiting.arguments(String.self) == "released")
        await pair.close()
    }
}
