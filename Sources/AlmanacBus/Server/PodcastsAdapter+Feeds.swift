import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

extension PodcastsAdapter {
    /// Reading a feed without subscribing (`Inspect…`, `FetchFeed`) and finding podcasts (`Search`).
    func feedMethods(connection strongConnection: Connection) -> [Method] {
        // Weak: the connection holds these handlers.
        weak let connection = strongConnection
        let inspector = self.inspector
        return [
            Method(BusContract.Podcasts1.inspect, async: { _, url in
                try WireCoding.dictionary(try await Self.inspect(url: url, inspector: inspector))
            }, checkingLength: { _, _, length in
                try LargeAnswers.check(length, on: connection, "The feed's answer", instead: "call InspectDescriptor to receive it as a file descriptor")
            }),
            Method(BusContract.Podcasts1.inspectData, async: { _, arguments in
                let (data, baseURL) = arguments
                guard data.count <= Self.maximumInspectBytes else {
                    throw BusError.invalidArgs("A feed can be at most \(Self.maximumInspectBytes / 1024 / 1024) MiB, not \(data.count / 1024 / 1024) MiB.")
                }
                return try WireCoding.dictionary(try inspector.inspect(bytes: data, baseURL: baseURL.isEmpty ? nil : baseURL))
            }, checkingLength: { _, _, length in
                try LargeAnswers.check(length, on: connection, "The feed's answer", instead: "pass the file to InspectFile to receive it as a file descriptor")
            }),
            // Off the connection's thread: a big file takes a while to parse.
            Method(BusContract.Podcasts1.inspectFile, async: { _, arguments in
                let (file, baseURL) = arguments
                let data = try LargeAnswers.read(file, limit: LargeAnswers.maximumFeedFileBytes, "A feed file")
                let feed = try WireCoding.value(try inspector.inspect(bytes: data, baseURL: baseURL.isEmpty ? nil : baseURL))
                return try LargeAnswers.payload("The feed's answer") { try $0.write(feed) }
            }),
            Method(BusContract.Podcasts1.inspectDescriptor, async: { _, url in
                let feed = try WireCoding.value(try await Self.inspect(url: url, inspector: inspector))
                return try LargeAnswers.payload("The feed's answer") { try $0.write(feed) }
            }),
            // The feed's bytes, unparsed, for a client that parses them itself (the CLI).
            Method(BusContract.Podcasts1.fetchFeed, async: { _, url in
                let fetched = try await inspector.fetch(url: url.trimmed)
                return (try UnixFD.sealedMemory(containing: fetched.body, name: "almanac-feed"),
                        FeedCredentials.redacted(fetched.feedURL), FeedCredentials.redacted(fetched.baseURL))
            }),
            Method(BusContract.Podcasts1.search, async: { [search] _, arguments in
                let (given, values) = arguments
                let options = try OptionsReader(values, allowed: ["limit"], what: "search option")
                let limit = try options.number("limit") ?? 25
                guard limit.rounded() == limit, (1...Double(Self.maximumSearchResults)).contains(limit) else {
                    throw BusError.invalidArgs("'limit' is a whole number from 1 to \(Self.maximumSearchResults), not \(limit.echoedText).")
                }
                let term = given.trimmed
                guard !term.isEmpty, term.utf8.count <= 200 else { throw BusError.invalidArgs("Search for 1 to 200 bytes of text, such as a podcast's name.") }
                guard let search else { throw BusError(.notSupported, "This almanacd has no podcast directory to search (the demo provider).") }
                return try WireCoding.dictionaries(try await search.search(term, limit: Int(limit)))
            }),
        ]
    }
}
