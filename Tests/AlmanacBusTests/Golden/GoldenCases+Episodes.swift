@testable import AlmanacWire
import AlmanacModels
import DBus
import Foundation

/// `Podcasts1`'s replies about episodes and feeds: a page of `ListEpisodes`, `GetEpisode`,
/// `GetQueue`, `GetEpisodeDetails`, `GetTranscript`, `SearchTranscripts`, `Search`,
/// `GetListeningStats` and `Inspect`.
extension GoldenCases {
    static let person = FeedPerson(name: "Zoë Ünal", role: "host", href: "https://example.org/zoe", image: "https://example.org/zoe.png")
    static let barePerson = FeedPerson(name: "Guest")
    static let transcriptLink = FeedTranscript(url: "https://example.org/1.vtt", type: "text/vtt", language: "de")
    static let bareTranscriptLink = FeedTranscript(url: "https://example.org/1.json")

    static let details = EpisodeDetails(link: "https://example.org/1", description: "<p>Notizen — über <a href=\"https://example.org\">dies</a></p>",
                                        descriptionText: "Notizen — über dies", descriptionLinks: [FeedLink(url: "https://example.org", end: 19)],
                                        image: "https://example.org/1.png", explicit: true, episodeType: "full", season: 2, episode: 7,
                                        chaptersURL: "https://example.org/1.chapters.json", transcripts: [transcriptLink, bareTranscriptLink],
                                        persons: [person, barePerson])
    static let chapters = [FeedChapter(start: 0, title: "Anfang", url: "https://example.org/c", image: "https://example.org/c.png"),
                           FeedChapter(start: 61.5, title: "Kapitel 2")]
    static let record = EpisodeRecord(episode: episode, podcastTitle: podcast.title, podcast: PodcastDetails(image: "https://example.org/p.png", link: "https://example.org"),
                                      details: details, chapters: chapters, chaptersSource: .json, chaptersNote: "Kapitel aus der JSON-Datei")
    static let bareRecord = EpisodeRecord(episode: bareEpisode)

    static let transcript = Transcript(url: "https://example.org/1.vtt", format: .vtt, segments: [
        TranscriptSegment(start: 0, end: 2.5, speaker: "Zoë", text: "Hallo — willkommen!"), TranscriptSegment(start: nil, text: "…"),
    ], note: "Ohne Zeiten ab 2:00")
    static let bareTranscript = Transcript(url: "https://example.org/1.json", format: .json, segments: [])
    static let moments = [TranscriptMoment(episodeID: "p-1", start: 12.5, text: "über alles"), TranscriptMoment(episodeID: "q-1", start: nil, text: "Über")]

    static let results = [
        PodcastSearchResult(title: "Kaffee ☕", author: "Zoë", feedURL: "https://example.org/feed.xml", episodeCount: 120, genre: "Gesellschaft",
                            artworkURL: "https://example.org/a.png", pageURL: "https://example.org"),
        PodcastSearchResult(title: "Bare", author: "", feedURL: "https://example.org/bare.xml"),
    ]
    static let totals = [ListeningTotal(day: "2027-01-15", podcastID: "p", podcastTitle: podcast.title, seconds: 1_800.5),
                         ListeningTotal(day: "2027-01-16", podcastID: "q", podcastTitle: "", seconds: 0)]

    static let parsedEpisode = ParsedEpisode(guid: "urn:1", title: "Folge 1", link: "https://example.org/1", description: "<p>Über</p>", descriptionText: "Über",
                                             published: 1_800_000_000, duration: 61.5,
                                             enclosures: [FeedEnclosure(url: "https://example.org/1.mp3", length: 1_234_567, type: "audio/mpeg"),
                                                          FeedEnclosure(url: "https://example.org/1.ogg")],
                                             image: "https://example.org/1.png", explicit: false, episodeType: "bonus", season: 1, episode: 3,
                                             chaptersURL: "https://example.org/c.json", transcripts: [transcriptLink, bareTranscriptLink], persons: [person, barePerson])
    static let feed = ParsedFeed(title: "Kaffee ☕", link: "https://example.org", description: "<b>Über</b>", descriptionText: "Über", author: "Zoë",
                                 language: "de", image: "https://example.org/p.png", explicit: true, newFeedURL: "https://example.com/feed",
                                 nextPageURL: "https://example.org/feed?page=2", locked: true, categories: ["Society & Culture", "Gesellschaft"],
                                 funding: [FeedFunding(url: "https://example.org/give", text: "Unterstützen")], persons: [person],
                                 episodes: [parsedEpisode, ParsedEpisode(guid: "urn:2", title: "")])

    /// `GetEpisode`'s record as PodcastsAdapter builds it: the episode's keys and its podcast's title.
    static func episodeRecord(_ episode: Episode, podcastTitle: String?) -> [String: Value] {
        var record = (PodcastsCodec.encode(episode).stringKeyedEntries ?? [:]).mapValues(\.unwrapped)
        if let podcastTitle { record["podcastTitle"] = .string(podcastTitle) }
        return record
    }

    static var episodes: [GoldenCase] {
        let page = EpisodePage(episodes: [episode, bareEpisode], total: 52, nextCursor: "p-2|1799996400")
        let (pageItems, pageInfo) = PodcastsCodec.encode(page)
        return [
            GoldenCase("page-episodes", items: pageItems) { $0.map(\.asVariantDictionary).compactMap(PodcastsCodec.decodeEpisode) == [episode, bareEpisode] },
            GoldenCase("page-info", fields: pageInfo) { $0["total"]?.integerValue == 52 && $0["nextCursor"]?.stringValue == page.nextCursor },
            GoldenCase("page-info-last", fields: PodcastsCodec.encode(EpisodePage(episodes: [], total: 0, nextCursor: nil)).1) { $0["total"]?.integerValue == 0 && $0["nextCursor"] == nil },
            GoldenCase("episode", fields: episodeRecord(episode, podcastTitle: podcast.title)) {
                PodcastsCodec.decodeEpisode($0.asVariantDictionary) == episode && $0["podcastTitle"]?.stringValue == podcast.title
            },
            GoldenCase("episode-bare", fields: episodeRecord(bareEpisode, podcastTitle: nil)) {
                PodcastsCodec.decodeEpisode($0.asVariantDictionary) == bareEpisode && $0["podcastTitle"] == nil
            },
            // `GetQueue`: each episode's keys and its podcast's title, sorted, as PodcastsAdapter builds them.
            GoldenCase("queue", items: .array(.dictionary(key: .string, value: .variant), [(episode, podcast.title), (bareEpisode, nil)].map { episode, title in
                episodeRecord(episode, podcastTitle: title).asVariantDictionary
            })) { items in
                items.compactMap { fields in PodcastsCodec.decodeEpisode(fields.asVariantDictionary).map { ($0, fields["podcastTitle"]?.stringValue) } }
                    .elementsEqual([(episode, podcast.title), (bareEpisode, nil)]) { $0.0 == $1.0 && $0.1 == $1.1 }
            },
            GoldenCase("record", fields: PodcastsCodec.encode(record)) { PodcastsCodec.decodeRecord($0) == record },
            GoldenCase("record-bare", fields: PodcastsCodec.encode(bareRecord)) { PodcastsCodec.decodeRecord($0) == bareRecord },
            GoldenCase("transcript", fields: PodcastsCodec.encode(transcript)) { PodcastsCodec.decodeTranscript($0) == transcript },
            GoldenCase("transcript-bare", fields: PodcastsCodec.encode(bareTranscript)) { PodcastsCodec.decodeTranscript($0) == bareTranscript },
            GoldenCase("moments", items: PodcastsCodec.encode(moments)) { PodcastsCodec.decodeMoments($0) == moments },
            GoldenCase("moments-none", items: PodcastsCodec.encode([TranscriptMoment]())) { PodcastsCodec.decodeMoments($0).isEmpty },
            GoldenCase("search", items: .array(.dictionary(key: .string, value: .variant), results.map(PodcastsCodec.encode))) {
                $0.compactMap(PodcastsCodec.decodeSearchResult) == results
            },
            GoldenCase("listening", items: PodcastsCodec.encode(totals)) { PodcastsCodec.decodeListening($0) == totals },
            GoldenCase("listening-none", items: PodcastsCodec.encode([ListeningTotal]())) { PodcastsCodec.decodeListening($0).isEmpty },
            GoldenCase("feed", value: FeedCodec.encode(feed)) { FeedCodec.decode(try $0.arguments([String: Value].self).asVariantDictionary) == feed },
            GoldenCase("feed-bare", value: FeedCodec.encode(ParsedFeed(title: ""))) {
                FeedCodec.decode(try $0.arguments([String: Value].self).asVariantDictionary) == ParsedFeed(title: "")
            },
        ]
    }
}
