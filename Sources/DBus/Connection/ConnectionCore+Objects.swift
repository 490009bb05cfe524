import Locking
import Synchronization
internal import CDBus

extension ConnectionCore {
    // MARK: Dispatching method calls (loop thread)

    func handleMethodCall(_ message: Message) {
        guard let path = message.path, let member = message.member else { return }
        let interfaceName = message.interface
        let (interfaces, isManager, isKnown) = state.withLock { state in
            (state.registry.interfaces(at: path), state.registry.managers.contains(path), state.registry.isKnown(path))
        }

        switch (interfaceName, member.rawValue) {
        case (.introspectable?, "Introspect"), (nil, "Introspect"):
            guard isKnown || path == .root else { return replyUnknownObject(message, path) }
            guard message.hasSignature("") else { return replyNoArguments(message, member) }
            let children = state.withLock { $0.registry.childNames(of: path) }
            let xml = IntrospectionXML.document(interfaces: interfaces ?? [], isManager: isManager, children: children)
            return reply(to: message) { try $0.write(xml) }
        case (.properties?, _):
            guard let interfaces else { return replyUnknownObject(message, path) }
            return handleProperties(message, member: member.rawValue, path: path, interfaces: interfaces)
        case (.objectManager?, "GetManagedObjects") where isManager, (nil, "GetManagedObjects") where isManager:
            guard message.hasSignature("") else { return replyNoArguments(message, member) }
            return reply(to: message) { [self] writer in try writeManagedObjects(below: path, to: &writer) }
        default:
            break
        }

        guard let interfaces else { return replyUnknownObject(message, path) }
        let method: Method
        if let interfaceName {
            guard let interface = interfaces.first(where: { $0.name == interfaceName }) else {
                return replyError(message, BusError(.unknownInterface, "The object at \(path) has no interface \(interfaceName)."))
            }
            guard let found = interface.methods[member] else {
                return replyError(message, BusError(.unknownMethod, "Interface \(interfaceName) at \(path) has no method \(member)."))
            }
            method = found
        } else {
            guard let found = interfaces.lazy.compactMap({ $0.methods[member] }).first else {
                return replyError(message, BusError(.unknownMethod, "The object at \(path) has no method \(member)."))
            }
            method = found
        }
        guard message.hasSignature(method.inputSignature) else {
            return replyError(message, BusError(
                .invalidArgs,
                "\(member) takes arguments of type '\(method.inputSignature)', not '\(message.signature)'."
            ))
        }
        let call = MethodCall(message: message, path: path)
        switch method.handler {
        case .sync(let handler):
            reply(to: message, expecting: method.outputSignature) { try handler(call, &$0) }
        case .deferred(let handler):
            let reply = DeferredReply(to: message, on: self, expecting: method.outputSignature)
            do {
                try handler(call, reply)
            } catch {
                reply.fail(error)
            }
        case .offloaded(let prepare):
            let write: @Sendable (inout MessageWriter) async throws -> Void
            do {
                write = try prepare(call)
            } catch {
                return replyError(message, error)
            }
            answerInTask(message, member, expecting: method.outputSignature) { try await write(&$0) }
        case .async(let handler):
            answerInTask(message, member, expecting: method.outputSignature) { try await handler(call, &$0) }
        }
    }

    /// Answers `message` with the reply `body` writes, in a task of its own, counted against
    /// its sender's calls under way until the task ends (`CallQueue`).
    private func answerInTask(_ message: Message, _ member: MemberName, expecting signature: String, _ body: @escaping @Sendable (inout MessageWriter) async throws -> Void) {
        let sender = message.senderKey
        loop.began(sender)
        Task { [self] in
            defer { loop.ended(sender) }
            do {
                let reply = try Message.headerless(DBUS_MESSAGE_TYPE_METHOD_RETURN)
                var writer = MessageWriter(appendingTo: reply.raw)
                try await body(&writer)
                try writer.checkUsable()
                guard writer.offset <= MessageWriter.maximumMessageLength else {
                    throw BusError.invalid("The reply of \(writer.offset) bytes exceeds the D-Bus limit of 128 MiB.")
                }
                reply.bodyLength = writer.offset
                _ = consume writer
                try checkSize(reply, "The reply to \(member)")
                try reply.addressReply(to: message)
                try checkReply(reply, to: message, expecting: signature)
                if message.expectsReply { send(reply) }
            } catch {
                replyError(message, error)
            }
        }
    }

    /// `InvalidArgs` for a call with arguments to a standard method that takes none.
    private func replyNoArguments(_ message: Message, _ member: MemberName) {
        replyError(message, BusError(.invalidArgs, "\(member) takes no arguments, not '\(message.signature)'."))
    }

    /// Builds and sends a reply whose arguments `body` writes; an error thrown by `body`
    /// becomes an error reply instead, and so does (in debug builds) a reply whose signature
    /// is not the `expecting` one the method declares.
    func reply(to message: Message, expecting signature: String? = nil, _ body: (inout MessageWriter) throws -> Void) {
        do {
            let reply = try message.reply(body)
            if let signature { try checkReply(reply, to: message, expecting: signature) }
            try checkSize(reply, "The reply to \(message.member?.rawValue ?? "the call")")
            if message.expectsReply { send(reply) }
        } catch {
            replyError(message, error)
        }
    }

    /// In debug builds, refuses a reply whose signature is not the one its method declares
    /// (introspection's promise): the caller gets `Failed` naming both, so a handler that
    /// answers the wrong types fails its tests instead of confusing its clients. Release
    /// builds send the reply as written (a typed definition's handlers cannot get it wrong).
    func checkReply(_ reply: Message, to call: Message, expecting signature: String) throws {
        #if DEBUG
        let written = reply.signature.rawValue
        guard written == signature else {
            throw BusError(.failed, "The server answered \(call.member?.rawValue ?? "the call") with '\(written)' where the method declares '\(signature)' (a bug in the server; checked in debug builds).")
        }
        #endif
    }

    func replyError(_ message: Message, _ error: any Error) {
        let busError = busError(for: error)
        guard message.expectsReply, let reply = try? message.makeErrorReply(busError) else { return }
        send(reply)
    }

    /// What a handler's `error` is as an error reply: a `BusError` as it is; any other as the
    /// connection's rule says (`Connection.replyToErrors(with:)`), by default `Failed` with
    /// its description. The one place every handler's error becomes a reply.
    func busError(for error: any Error) -> BusError {
        if let error = error as? BusError { return error }
        if let rule = state.withLock({ $0.errorRule }) { return rule.reply(error) }
        return BusError(.failed, String(describing: error))
    }

    private func replyUnknownObject(_ message: Message, _ path: ObjectPath) {
        replyError(message, BusError(.unknownObject, "No object is exported at \(path)."))
    }

    // MARK: org.freedesktop.DBus.Properties

    private func handleProperties(_ message: Message, member: String, path: ObjectPath, interfaces: [Interface]) {
        func find(_ interfaceName: String) throws -> Interface {
            guard let interface = interfaces.first(where: { $0.name.rawValue == interfaceName }) else {
                throw BusError(.unknownInterface, "The object at \(path) has no interface '\(interfaceName)'.")
            }
            return interface
        }
        func property(_ interfaceName: String, _ name: String) throws -> (Interface, Property) {
            let candidates = interfaceName.isEmpty ? interfaces : [try find(interfaceName)]
            for interface in candidates {
                if let property = interface.properties.first(where: { $0.key.rawValue == name })?.value {
                    return (interface, property)
                }
            }
            throw BusError(.unknownProperty, "The object at \(path) has no property '\(name)'\(interfaceName.isEmpty ? "" : " on \(interfaceName)").")
        }
        do {
            switch member {
            case "Get":
                guard message.hasSignature("ss") else { throw BusError(.invalidArgs, "Get takes (ss), not '\(message.signature)'.") }
                let (interfaceName, name) = try message.arguments(String.self, String.self)
                let (_, property) = try property(interfaceName, name)
                guard property.access != .write, let get = property.get else {
                    throw BusError(.accessDenied, "Property \(name) can be written but not read.")
                }
                let value = try checkedValue(of: property, try get())
                reply(to: message) { try $0.writeVariant(value) }
            case "GetAll":
                guard message.hasSignature("s") else { throw BusError(.invalidArgs, "GetAll takes (s), not '\(message.signature)'.") }
                let (interfaceName) = try message.arguments(String.self)
                let values = interfaceName.isEmpty ? interfaces.flatMap { $0.readableValues() } : try find(interfaceName).readableValues()
                reply(to: message) { try $0.writePropertyDictionary(values) }
            case "Set":
                guard message.hasSignature("ssv") else { throw BusError(.invalidArgs, "Set takes (ssv), not '\(message.signature)'.") }
                let (interfaceName, name, value) = try message.arguments(String.self, String.self, Value.self)
                let (interface, property) = try property(interfaceName, name)
                guard property.access != .read, let set = property.set else {
                    throw BusError(.propertyReadOnly, "Property \(name) is read-only.")
                }
                guard value.type == property.type else {
                    throw BusError(.invalidArgs, "Property \(name) has type '\(property.type.signature)'; a value of type '\(value.type.signature)' cannot be set.")
                }
                try set(value)
                reply(to: message) { _ in }
                if property.emitsChange, let get = property.get, let current = try? checkedValue(of: property, get()) {
                    try? emitPropertiesChanged(path: path, interface: interface.name, changed: [(name, current)], invalidated: [])
                }
            default:
                throw BusError(.unknownMethod, "org.freedesktop.DBus.Properties has no method \(member).")
            }
        } catch {
            replyError(message, error)
        }
    }

    private func checkedValue(of property: Property, _ value: Value) throws -> Value {
        guard value.type == property.type else {
            throw BusError(.failed, "Property \(property.name) produced a value of type '\(value.type.signature)' instead of '\(property.type.signature)'.")
        }
        return value
    }

    // MARK: org.freedesktop.DBus.ObjectManager

    private func writeManagedObjects(below path: ObjectPath, to writer: inout MessageWriter) throws {
        let objects = state.withLock { $0.registry.objects(below: path) }
        try writer.writeDictionary(key: .objectPath, value: Self.interfacesAndProperties) { writer in
            for (objectPath, interfaces) in objects {
                try writer.writeDictionaryEntry { writer in
                    try writer.write(objectPath)
                    try writer.writeInterfacesAndProperties(interfaces)
                }
            }
        }
    }

    static let interfacesAndProperties = ValueType.dictionary(key: .string, value: .dictionary(key: .string, value: .variant))

    // MARK: Emitting

    @discardableResult
    func emit(path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName?,
              _ body: (inout MessageWriter) throws -> Void) throws -> Int {
        let signal = try Message.signal(path: path, interface: interface, member: member, destination: destination, body)
        try checkSize(signal, "The signal \(interface).\(member)")
        send(signal)
        return signal.bodyLength
    }

    func emitPropertiesChanged(path: ObjectPath, interface: InterfaceName, changed: [(String, Value)], invalidated: [String]) throws {
        try emit(path: path, interface: .properties, member: MemberName(unchecked: "PropertiesChanged"), destination: nil) { writer in
            try writer.write(interface.rawValue)
            try writer.writePropertyDictionary(changed)
            try invalidated.encode(to: &writer)
        }
    }

    func export(_ interfaces: [Interface], at path: ObjectPath) throws {
        // Build the announcement before registering, so a failure leaves nothing behind.
        // (Property getters run here, on the caller's thread.)
        let manager = state.withLock { $0.registry.manager(for: path) }
        let announcement = try manager.map { manager in
            try Message.signal(path: manager, interface: .objectManager, member: MemberName(unchecked: "InterfacesAdded")) { writer in
                try writer.write(path)
                try writer.writeInterfacesAndProperties(interfaces)
            }
        }
        state.withLock { $0.registry.add(interfaces, at: path) }
        if let announcement { send(announcement) }
    }

    func unexport(at path: ObjectPath, interfaces names: [InterfaceName]?) throws {
        let (removed, manager) = state.withLock { state in
            (state.registry.remove(at: path, interfaces: names), state.registry.manager(for: path))
        }
        if let manager, !removed.isEmpty {
            try emit(path: manager, interface: .objectManager, member: MemberName(unchecked: "InterfacesRemoved"), destination: nil) { writer in
                try writer.write(path)
                try removed.map(\.rawValue).encode(to: &writer)
            }
        }
    }
}

extension MessageWriter {
    /// Writes `a{sv}` from ordered pairs.
    mutating func writePropertyDictionary(_ values: [(String, Value)]) throws {
        try writeDictionary(key: .string, value: .variant) { writer in
            for (name, value) in values {
                try writer.writeDictionaryEntry { writer in
                    try writer.write(name)
                    try writer.writeVariant(value)
                }
            }
        }
    }

    /// Writes `a{sa{sv}}`: each interface with its readable properties.
    mutating func writeInterfacesAndProperties(_ interfaces: [Interface]) throws {
        try writeDictionary(key: .string, value: .dictionary(key: .string, value: .variant)) { writer in
            for interface in interfaces {
                try writer.writeDictionaryEntry { writer in
                    try writer.write(interface.name.rawValue)
                    try writer.writePropertyDictionary(interface.readableValues())
                }
            }
        }
    }
}
