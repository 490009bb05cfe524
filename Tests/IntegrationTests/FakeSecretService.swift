import DBus
import Foundation
import Locking
import Synchronization
import TestHarness

/// A small Secret Service (`org.freedesktop.secrets`) on a private bus, as GNOME Keyring
/// serves one: `plain` sessions, a default collection whose `CreateItem` keeps (or replaces)
/// an item by its attributes, `SearchItems`, `GetSecrets`, `Item.Delete`. It records what it
/// keeps, so a test can see the password went there and nowhere else.
final class FakeSecretService: Sendable {
    struct Item: Sendable, Hashable {
        var attributes: [String: String]
        var label: String
        var secret: [UInt8]
    }

    static let root = ObjectPath("/org/freedesktop/secrets")
    static let defaultCollection = ObjectPath("/org/freedesktop/secrets/aliases/default")

    let connection: Connection
    /// The items kept, by object path.
    let items = Locked<[ObjectPath: Item]>([:])
    private let counter = Atomic<UInt64>(1)

    /// `refusing`: `CreateItem` fails, as a keyring without a default collection does.
    init(address: String, refusing: Bool = false) async throws {
        connection = try await Connection.connect(to: address)
        let secretType = ValueType.structure([.objectPath, .array(.byte), .array(.byte), .string])
        try connection.export([try Interface("org.freedesktop.Secret.Service", methods: [
            Method("OpenSession", inputs: [Argument("algorithm", .string), Argument("input", .variant)],
                   outputs: [Argument("output", .variant), Argument("result", .objectPath)]) { call, reply in
                let (algorithm, _) = try call.arguments(String.self, Value.self)
                guard algorithm == "plain" else { throw BusError(ErrorName("org.freedesktop.DBus.Error.NotSupported"), "only plain") }
                let session = try ObjectPath("/org/freedesktop/secrets/session/s\(self.counter.add(1, ordering: .relaxed).oldValue)")
                try self.connection.export([try Interface("org.freedesktop.Secret.Session", methods: [
                    Method("Close") { _, _ in try? self.connection.unexport(session) },
                ])], at: session)
                try reply.writeVariant(.string(""))
                try reply.write(session)
            },
            Method("SearchItems", inputs: [Argument("attributes", .dictionary(key: .string, value: .string))],
                   outputs: [Argument("unlocked", .array(.objectPath)), Argument("locked", .array(.objectPath))]) { call, reply in
                let (wanted) = try call.arguments([String: String].self)
                let found = self.items.withLock { items in
                    items.filter { _, item in wanted.allSatisfy { item.attributes[$0.key] == $0.value } }.keys.sorted { $0.rawValue < $1.rawValue }
                }
                try found.encode(to: &reply)
                try [ObjectPath]().encode(to: &reply)
            },
            Method("GetSecrets", inputs: [Argument("items", .array(.objectPath)), Argument("session", .objectPath)],
                   outputs: [Argument("secrets", .dictionary(key: .objectPath, value: secretType))]) { call, reply in
                let (paths, session) = try call.arguments([ObjectPath].self, ObjectPath.self)
                let entries = self.items.withLock { items in
                    paths.compactMap { path in
                        items[path].map { item in
                            Value.DictionaryEntry(.objectPath(path), .structure([.objectPath(session), .array(.byte, []),
                                                                                  .array(.byte, item.secret.map(Value.byte)), .string("text/plain")]))
                        }
                    }
                }
                try reply.write(Value.dictionary(key: .objectPath, value: secretType, entries))
            },
            Method("Unlock", inputs: [Argument("objects", .array(.objectPath))],
                   outputs: [Argument("unlocked", .array(.objectPath)), Argument("prompt", .objectPath)]) { call, reply in
                let (paths) = try call.arguments([ObjectPath].self)
                try paths.encode(to: &reply)
                try reply.write(ObjectPath("/"))
            },
        ])], at: Self.root)
        try connection.export([try Interface("org.freedesktop.Secret.Collection", methods: [
            Method("CreateItem", inputs: [Argument("properties", .dictionary(key: .string, value: .variant)), Argument("secret", secretType),
                                          Argument("replace", .boolean)],
                   outputs: [Argument("item", .objectPath), Argument("prompt", .objectPath)]) { call, reply in
                if refusing { throw BusError(ErrorName("org.freedesktop.Secret.Error.NoSuchObject"), "No such collection: default") }
                let values = try call.message.values()
                guard values.count == 3, let properties = values[0].stringKeyedEntries, case .structure(let fields) = values[1], fields.count == 4,
                      case .array(_, let bytes) = fields[2] else { throw BusError.invalidArgs("not a secret") }
                var attributes: [String: String] = [:]
                if case .dictionary(_, _, let entries)? = properties["org.freedesktop.Secret.Item.Attributes"]?.unwrapped {
                    for entry in entries {
                        if let key = entry.key.stringValue, let value = entry.value.stringValue { attributes[key] = value }
                    }
                }
                let item = Item(attributes: attributes, label: properties["org.freedesktop.Secret.Item.Label"]?.stringValue ?? "",
                                secret: bytes.compactMap { if case .byte(let byte) = $0 { byte } else { nil } })
                let path = try self.keep(item)
                try reply.write(path)
                try reply.write(ObjectPath("/"))
            },
        ])], at: Self.defaultCollection)
        _ = try await connection.requestName(BusName("org.freedesktop.secrets"), flags: .doNotQueue)
    }

    /// Keeps `item`, replacing one with the same attributes (as `replace: true` asks).
    private func keep(_ item: Item) throws -> ObjectPath {
        let existing = items.withLock { items in items.first { $0.value.attributes == item.attributes }?.key }
        let path = try existing ?? ObjectPath("/org/freedesktop/secrets/collection/login/i\(counter.add(1, ordering: .relaxed).oldValue)")
        items.withLock { $0[path] = item }
        if existing == nil {
            try connection.export([try Interface("org.freedesktop.Secret.Item", methods: [
                Method("Delete", outputs: [Argument("prompt", .objectPath)]) { _, reply in
                    _ = self.items.withLock { $0.removeValue(forKey: path) }
                    try? self.connection.unexport(path)
                    try reply.write(ObjectPath("/"))
                },
            ])], at: path)
        }
        return path
    }

    /// The secrets kept, as text.
    var secrets: [String] { items.withLock { $0.values.map { String(decoding: $0.secret, as: UTF8.self) } } }
}
