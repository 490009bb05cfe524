import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

extension PodcastsAdapter {
    /// Importing and exporting the subscriptions as OPML.
    func opmlMethods(connection strongConnection: Connection) -> [Method] {
        // Weak: the connection holds these handlers.
        weak let connection = strongConnection
        let podcasts = self.podcasts
        let inspector = self.inspector
        return [
            Method(BusContract.Podcasts1.importOPML, async: { [opml] _, data in
                guard data.count <= Self.maximumInspectBytes else { throw BusError.invalidArgs("An OPML file can be at most \(Self.maximumInspectBytes / 1024 / 1024) MiB.") }
                let results = try await Self.importOPML(data, opml: opml, podcasts: podcasts, inspector: inspector)
                return (results.subscribed, results.failed)
            }),
            Method(BusContract.Podcasts1.importOPMLFile, async: { [opml] _, file in
                let data = try LargeAnswers.read(file, limit: Self.maximumInspectBytes, "An OPML file")
                let results = try await Self.importOPML(data, opml: opml, podcasts: podcasts, inspector: inspector)
                return (results.subscribed, results.failed)
            }),
            Method(BusContract.Podcasts1.exportOPML, offloading: { [opml] _, _ in
                let state = podcasts.document.snapshot.state
                return { Self.exportOPML(state, opml: opml) }
            }, checkingLength: { _, _, length in
                try LargeAnswers.check(length, on: connection, "The OPML document", instead: "call ExportOPMLDescriptor to receive it as a file descriptor")
            }),
            Method(BusContract.Podcasts1.exportOPMLDescriptor, offloading: { [opml] _, _ in
                let state = podcasts.document.snapshot.state
                return {
                    let text = Self.exportOPML(state, opml: opml)
                    return try LargeAnswers.payload("The OPML document") { try $0.write(text) }
                }
            }),
        ]
    }
}
