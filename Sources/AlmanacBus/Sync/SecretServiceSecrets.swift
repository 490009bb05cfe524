public import AlmanacCore
public import AlmanacModels
public import DBus

/// The sync password in the Secret Service (`org.freedesktop.secrets`: GNOME Keyring,
/// KWallet, KeePassXC), as the freedesktop.org Secret Service API describes: a `plain`
/// session (`Service.OpenSession`), an item in the default collection
/// (`Collection.CreateItem` at `/org/freedesktop/secrets/aliases/default`, replacing one
/// with the same attributes) with the attributes `application` = `almanac`, `server`, `user`;
/// read back with `Service.SearchItems` and `Service.GetSecrets`, unlocking with
/// `Service.Unlock` when the collection is locked. A prompt the service asks for (to unlock,
/// to create) is shown with `Prompt.Prompt("")` and waited for.
public final class SecretServiceSecrets: SyncSecrets {
    public let place = "secret-service"

    static let service: BusName = "org.freedesktop.secrets"
    static let servicePath: ObjectPath = "/org/freedesktop/secrets"
    static let serviceInterface: InterfaceName = "org.freedesktop.Secret.Service"
    static let collectionInterface: InterfaceName = "org.freedesktop.Secret.Collection"
    static let itemInterface: InterfaceName = "org.freedesktop.Secret.Item"
    static let sessionInterface: InterfaceName = "org.freedesktop.Secret.Session"
    static let promptInterface: InterfaceName = "org.freedesktop.Secret.Prompt"
    static let defaultCollection: ObjectPath = "/org/freedesktop/secrets/aliases/default"
    static let noPrompt: ObjectPath = "/"

    private let connection: Connection
    /// How long a prompt (the user unlocking the keyring) may take.
    private let patience: Duration

    public init(connection: Connection, patience: Duration = .seconds(120)) {
        self.connection = connection
        self.patience = patience
    }

    /// Whether a Secret Service is on the bus, or can be started on it (D-Bus activation).
    public static func isAvailable(on connection: Connection) async -> Bool {
        if (try? await connection.nameOwner(of: service)) != nil { return true }
        let names = try? await connection.call(.bus, path: "/org/freedesktop/DBus", interface: .bus, method: "ListActivatableNames")
            .arguments([String].self)
        return names?.contains(service.rawValue) ?? false
    }

    private static func attributes(_ account: SyncAccount) -> [String: String] {
        ["application": "almanac", "server": account.server, "user": account.user]
    }

    private static func attributeValue(_ attributes: [String: String]) -> Value {
        .dictionary(key: .string, value: .string, attributes.sorted { $0.key < $1.key }.map { Value.DictionaryEntry(.string($0.key), .string($0.value)) })
    }

    public func store(_ password: String, for account: SyncAccount) async throws {
        do {
            let session = try await openSession()
            defer { close(session) }
            let properties = Value.stringVariantDictionary([
                "org.freedesktop.Secret.Item.Label": .string("Almanac: sync password of \(account.user) on \(account.server)"),
                "org.freedesktop.Secret.Item.Attributes": Self.attributeValue(Self.attributes(account)),
            ])
            let secret = Value.structure([
                .objectPath(session), .array(.byte, []), .array(.byte, Array(password.utf8).map(Value.byte)), .string("text/plain; charset=utf8"),
            ])
            let reply = try await connection.call(Self.service, path: Self.defaultCollection, interface: Self.collectionInterface,
                                                  method: "CreateItem", timeout: .seconds(30)) { writer in
                try writer.write(properties)
                try writer.write(secret)
                try writer.write(true)
            }
            let (_, prompt) = try reply.arguments(ObjectPath.self, ObjectPath.self)
            if prompt != Self.noPrompt {
                guard try await self.prompt(prompt) else { throw SyncError(.secrets, "The Secret Service's prompt to keep the password was dismissed; nothing was kept.") }
            }
        } catch let error as SyncError {
            throw error
        } catch let error as BusError {
            throw SyncError(.secrets, "The Secret Service could not keep the password: \(error.message)")
        }
    }

    public func password(for account: SyncAccount) async throws -> String? {
        do {
            let (unlocked, locked) = try await connection.call(Self.service, path: Self.servicePath, interface: Self.serviceInterface,
                                                                 method: "SearchItems") { writer in
                try writer.write(Self.attributeValue(Self.attributes(account)))
            }.arguments([ObjectPath].self, [ObjectPath].self)
            var items = unlocked
            if items.isEmpty, !locked.isEmpty {
                items = try await unlock(locked)
            }
            guard let item = items.first else { return nil }
            let session = try await openSession()
            defer { close(session) }
            let reply = try await connection.call(Self.service, path: Self.servicePath, interface: Self.serviceInterface,
                                                  method: "GetSecrets", timeout: .seconds(30), arguments: [item], session)
            let values = try reply.values()
            guard case .dictionary(_, _, let entries)? = values.first, let entry = entries.first(where: { $0.key == Value.objectPath(item) }),
                  case .structure(let fields) = entry.value, fields.count >= 3, case .array(_, let bytes) = fields[2] else { return nil }
            let raw = bytes.compactMap { value -> UInt8? in
                if case .byte(let byte) = value { return byte }
                return nil
            }
            return String(decoding: raw, as: UTF8.self)
        } catch let error as SyncError {
            throw error
        } catch let error as BusError {
            throw SyncError(.secrets, "The Secret Service could not give the password: \(error.message)")
        }
    }

    public func forget(_ account: SyncAccount) async {
        guard let (unlocked, locked) = try? await connection.call(Self.service, path: Self.servicePath, interface: Self.serviceInterface,
                                                                    method: "SearchItems", body: { writer in
            try writer.write(Self.attributeValue(Self.attributes(account)))
        }).arguments([ObjectPath].self, [ObjectPath].self) else { return }
        for item in unlocked + locked {
            guard let prompt = try? await connection.call(Self.service, path: item, interface: Self.itemInterface, method: "Delete")
                .arguments(ObjectPath.self) else { continue }
            if prompt != Self.noPrompt { _ = try? await self.prompt(prompt) }
        }
    }

    // MARK: Sessions and prompts

    /// A `plain` session: the secret crosses the bus unencrypted, as it would to any process
    /// of the user's (the session bus is theirs alone).
    private func openSession() async throws -> ObjectPath {
        let reply = try await connection.call(Self.service, path: Self.servicePath, interface: Self.serviceInterface, method: "OpenSession",
                                              timeout: .seconds(30)) { writer in
            try writer.write("plain")
            try writer.writeVariant(.string(""))
        }
        let values = try reply.values()
        guard values.count == 2, case .objectPath(let session) = values[1] else {
            throw BusError(.failed, "OpenSession answered \(reply.signature), not (vo).")
        }
        return session
    }

    private func close(_ session: ObjectPath) {
        try? connection.callWithoutReply(Self.service, path: session, interface: Self.sessionInterface, method: "Close") { _ in }
    }

    private func unlock(_ items: [ObjectPath]) async throws -> [ObjectPath] {
        let (unlocked, prompt) = try await connection.call(Self.service, path: Self.servicePath, interface: Self.serviceInterface,
                                                           method: "Unlock", timeout: .seconds(30), arguments: items)
            .arguments([ObjectPath].self, ObjectPath.self)
        if prompt == Self.noPrompt { return unlocked }
        guard try await self.prompt(prompt) else {
            throw SyncError(.secrets, "The keyring holding the sync password stayed locked (its prompt was dismissed); unlock it and sync again.")
        }
        return items
    }

    /// Shows a prompt and waits for its `Completed`; whether it was not dismissed.
    private func prompt(_ path: ObjectPath) async throws -> Bool {
        let completions = try await connection.signals(matching: MatchRule(sender: Self.service, interface: Self.promptInterface,
                                                                          member: "Completed", path: path), bufferLimit: 4)
        _ = try await connection.call(Self.service, path: path, interface: Self.promptInterface, method: "Prompt", arguments: "")
        let patience = self.patience
        return try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask {
                for await message in completions {
                    if let (dismissed, _) = try? message.arguments(Bool.self, Value.self) { return !dismissed }
                }
                return nil
            }
            group.addTask {
                try await RealTime.sleep(for: patience)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else { throw SyncError(.secrets, "The Secret Service's prompt was not answered in time.") }
            return first
        }
    }
}
