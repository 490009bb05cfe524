import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

extension PodcastsAdapter {
    /// Importing and exporting the subscriptions as OPML.
    func opmlMethods(connection strongConnection: Connection) throws -> [Method] {
        // Weak: the connection holds these handlers.
        weak let connection = strongConnection
        let podcasts = self.podcasts
        let inspector = self.inspector
        return try [
            Method(BusContract.Podcasts1.importOPML.rawValue, inputs: [Argument("opml", .array(.byte))],
                   outputs: [Argument("subscribed", .array(.string)), Argument("failed", .dictionary(key: .string, value: .string))], async: { [opml] call, reply in
                let (data) = try call.arguments([UInt8].self)
                guard data.count <= Self.maximumInspectBytes else { throw BusError.invalidArgs("An OPML file can be at most \(Self.maximumInspectBytes / 1024 / 1024) MiB.") }
                let results = try await Self.importOPML(data, opml: opml, podcasts: podcasts, inspector: inspector)
                try reply.write(arguments: results.subscribed, results.failed)
            }),
            Method(BusContract.Podcasts1.importOPMLFile.rawValue, inputs: [Argument("opml", .unixFD)],
                   outputs: [Argument("subscribed", .array(.string)), Argument("failed", .dictionary(key: .string, value: .string))], async: { [opml] call, reply in
                let (file) = try call.arguments(UnixFD.self)
                let data = try LargeAnswers.read(file, limit: Self.maximumInspectBytes, "An OPML file")
                let results = try await Self.importOPML(data, opml: opml, podcasts: podcasts, inspector: inspector)
                try reply.write(arguments: results.subscribed, results.failed)
            }),
            Method(BusContract.Podcasts1.exportOPML.rawValue, outputs: [Argument("opml", .string)], offloading: { [opml] _ in
                let state = podcasts.document.snapshot.state
                return { reply in
                    try reply.write(Self.exportOPML(state, opml: opml))
                    try LargeAnswers.check(reply.byteCount, on: connection, "The OPML document", instead: "call ExportOPMLDescriptor to receive it as a file descriptor")
                }
            }),
            Method(BusContract.Podcasts1.exportOPMLDescriptor.rawValue, outputs: [Argument("payload", .unixFD)], offloading: { [opml] _ in
                let state = podcasts.document.snapshot.state
                return { reply in
                    let text = Self.exportOPML(state, opml: opml)
                    try reply.write(try LargeAnswers.payload("The OPML document") { try $0.write(text) })
                }
            }),
        ]
    }
}
