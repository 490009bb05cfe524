import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

extension PodcastsAdapter {
    /// Subscribing, unsubscribing, renaming, refreshing one podcast and its settings.
    func libraryMethods() throws -> [Method] {
        let podcasts = self.podcasts
        let inspector = self.inspector
        let podcastArgument = Argument("podcast", .string)
        return try [
            Method(BusContract.Podcasts1.subscribe.rawValue, inputs: [Argument("url", .string)], outputs: [podcastArgument], async: { call, reply in
                let (given) = try call.arguments(String.self)
                try reply.write(try await Self.subscribe(given, podcasts: podcasts, inspector: inspector).id)
            }),
            Method(BusContract.Podcasts1.unsubscribe.rawValue, inputs: [podcastArgument], async: { call, _ in
                let (podcast) = try call.arguments(String.self)
                _ = try await podcasts.withOwner { try podcasts.unsubscribe(podcasts.podcast(podcast)?.id ?? podcast) }
            }),
            Method(BusContract.Podcasts1.refreshPodcast.rawValue, inputs: [podcastArgument], async: { [service] call, _ in
                let (given) = try call.arguments(String.self)
                guard let podcast = podcasts.podcast(given) else {
                    throw PodcastsDocument.unknownPodcast(given, in: podcasts.document.snapshot.state)
                }
                // The count of ended reads tells which outcome is this call's (no view, so no race with delivery).
                let before = podcasts.reads(of: podcast.id).count
                let outcome: (count: UInt64, failure: String?)
                if !podcasts.take([podcast.id], force: true).isEmpty {
                    await service.read([podcast])
                    outcome = podcasts.reads(of: podcast.id)
                } else {
                    // Already being read: that read's outcome is the answer.
                    outcome = await podcasts.reads(of: podcast.id, after: before, within: .seconds(60))
                }
                guard outcome.count > before else {
                    throw BusError(BusContract.fetchFailed, "\(FeedCredentials.redacted(podcast.feedURL)) is still being read after a minute; try again later.")
                }
                if let message = outcome.failure { throw BusError(BusContract.fetchFailed, "\(FeedCredentials.redacted(podcast.feedURL)): \(message)") }
            }),
            // A podcast's own settings: the rules (and the refusals) are the document's.
            Method(BusContract.Podcasts1.getPodcastSettings.rawValue, inputs: [podcastArgument], outputs: [Argument("settings", .dictionary(key: .string, value: .variant))]) { call, reply in
                let (given) = try call.arguments(String.self)
                let (_, preferences) = try podcasts.preferences(of: given)
                try reply.write(WireCoding.value(preferences))
            },
            Method(BusContract.Podcasts1.setPodcastSettings.rawValue, inputs: [podcastArgument, Argument("settings", .dictionary(key: .string, value: .variant))],
                   async: { call, _ in
                let (given, values) = try call.arguments(String.self, [String: Value].self)
                let submission = try PodcastsCodec.preferencesSubmission(values)
                _ = try await podcasts.withOwner { try podcasts.setPreferences(submission, of: given) }
            }),
            Method(BusContract.Podcasts1.rename.rawValue, inputs: [podcastArgument, Argument("title", .string)], async: { call, _ in
                let (podcast, title) = try call.arguments(String.self, String.self)
                _ = try await podcasts.withOwner { try podcasts.rename(podcasts.podcast(podcast)?.id ?? podcast, to: title) }
            }),
        ]
    }
}
