import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

extension PodcastsAdapter {
    /// Subscribing, unsubscribing, renaming, refreshing one podcast and its settings.
    func libraryMethods() -> [Method] {
        let podcasts = self.podcasts
        let inspector = self.inspector
        return [
            Method(BusContract.Podcasts1.subscribe, async: { _, given in
                try await Self.subscribe(given, podcasts: podcasts, inspector: inspector).id
            }),
            Method(BusContract.Podcasts1.unsubscribe, async: { _, podcast in
                _ = try await podcasts.withOwner { try podcasts.unsubscribe(podcasts.podcast(podcast)?.id ?? podcast) }
            }),
            Method(BusContract.Podcasts1.refreshPodcast, async: { [service] _, given in
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
            Method(BusContract.Podcasts1.getPodcastSettings) { _, given in
                let (_, preferences) = try podcasts.preferences(of: given)
                return try WireCoding.dictionary(preferences)
            },
            Method(BusContract.Podcasts1.setPodcastSettings, async: { _, arguments in
                let (given, values) = arguments
                let submission = try PodcastsCodec.preferencesSubmission(values)
                _ = try await podcasts.withOwner { try podcasts.setPreferences(submission, of: given) }
            }),
            Method(BusContract.Podcasts1.rename, async: { _, arguments in
                let (podcast, title) = arguments
                _ = try await podcasts.withOwner { try podcasts.rename(podcasts.podcast(podcast)?.id ?? podcast, to: title) }
            }),
        ]
    }
}
