import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

extension PodcastsAdapter {
    /// Reading a feed without subscribing (`Inspect…`, `FetchFeed`) and finding podcasts (`Search`).
    func feedMethods(connection strongConnection: Connection) throws -> [Method] {
        // Weak: the connection holds these handlers.
        weak let connection = strongConnection
        let inspector = self.inspector
        let feed = Argument("feed", .dictionary(key: .string, value: .variant))
        return try [
            Method(BusContract.Podcasts1.inspect.rawValue, inputs: [Argument("url", .string)], outputs: [feed], async: { call, reply in
                let (url) = try call.arguments(String.self)
                try reply.write(WireCoding.value(try await Self.inspect(url: url, inspector: inspector)))
                try LargeAnswers.check(reply.byteCount, on: connection, "The feed's answer", instead: "call InspectDescriptor to receive it as a file descriptor")
            }),
            Method(BusContract.Podcasts1.inspectData.rawValue, inputs: [Argument("data", .array(.byte)), Argument("baseURL", .string)], outputs: [feed], async: { call, reply in
                let (data, baseURL) = try call.arguments([UInt8].self, String.self)
                guard data.count <= Self.maximumInspectBytes else {
                    throw BusError.invalidArgs("A feed can be at most \(Self.maximumInspectBytes / 1024 / 1024) MiB, not \(data.count / 1024 / 1024) MiB.")
                }
                try reply.write(WireCoding.value(inspector.inspect(bytes: data, baseURL: baseURL.isEmpty ? nil : baseURL)))
                try LargeAnswers.check(reply.byteCount, on: connection, "The feed's answer", instead: "pass the file to InspectFile to receive it as a file descriptor")
            }),
            // Off the connection's thread: a big file takes a while to parse.
            Method(BusContract.Podcasts1.inspectFile.rawValue, inputs: [Argument("feed", .unixFD), Argument("baseURL", .string)], outputs: [Argument("payload", .unixFD)], async: { call, reply in
                let (file, baseURL) = try call.arguments(UnixFD.self, String.self)
                let data = try LargeAnswers.read(file, limit: LargeAnswers.maximumFeedFileBytes, "A feed file")
                let feed = try WireCoding.value(try inspector.inspect(bytes: data, baseURL: baseURL.isEmpty ? nil : baseURL))
                try reply.write(try LargeAnswers.payload("The feed's answer") { try $0.write(feed) })
            }),
            Method(BusContract.Podcasts1.inspectDescriptor.rawValue, inputs: [Argument("url", .string)], outputs: [Argument("payload", .unixFD)], async: { call, reply in
                let (url) = try call.arguments(String.self)
                let feed = try WireCoding.value(try await Self.inspect(url: url, inspector: inspector))
                try reply.write(try LargeAnswers.payload("The feed's answer") { try $0.write(feed) })
            }),
            // The feed's bytes, unparsed, for a client that parses them itself (the CLI).
            Method(BusContract.Podcasts1.fetchFeed.rawValue, inputs: [Argument("url", .string)],
                   outputs: [Argument("feed", .unixFD), Argument("feedURL", .string), Argument("baseURL", .string)], async: { call, reply in
                let (url) = try call.arguments(String.self)
                let fetched = try await inspector.fetch(url: url.trimmed)
                try reply.write(try UnixFD.sealedMemory(containing: fetched.body, name: "almanac-feed"))
                try reply.write(FeedCredentials.redacted(fetched.feedURL))
                try reply.write(FeedCredentials.redacted(fetched.baseURL))
            }),
            Method(BusContract.Podcasts1.search.rawValue, inputs: [Argument("term", .string), Argument("options", .dictionary(key: .string, value: .variant))],
                   outputs: [Argument("results", .array(.dictionary(key: .string, value: .variant)))], async: { [search] call, reply in
                let (given, values) = try call.arguments(String.self, [String: Value].self)
                let options = try OptionsReader(values, allowed: ["limit"], what: "search option")
                let limit = try options.number("limit") ?? 25
                guard limit.rounded() == limit, (1...Double(Self.maximumSearchResults)).contains(limit) else {
                    throw BusError.invalidArgs("'limit' is a whole number from 1 to \(Self.maximumSearchResults), not \(limit.echoedText).")
                }
                let term = given.trimmed
                guard !term.isEmpty, term.utf8.count <= 200 else { throw BusError.invalidArgs("Search for 1 to 200 bytes of text, such as a podcast's name.") }
                guard let search else { throw BusError(.notSupported, "This almanacd has no podcast directory to search (the demo provider).") }
                let results = try await search.search(term, limit: Int(limit))
                try reply.write(WireCoding.value(results))
            }),
        ]
    }
}
