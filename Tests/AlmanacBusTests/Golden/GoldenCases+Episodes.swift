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

    static var episodes: [GoldenCase] {
        let page = EpisodePage(episodes: [episode, bareEpisode], total: 52, nextCursor: "p-2|1799996400")
        return [
            GoldenCase("page-episodes", items: list(page.episodes)) { try WireCoding.decode([Episode].self, from: $0) == [episode, bareEpisode] },
            GoldenCase("page-info", fields: fields(EpisodePageInfo(page, revision: nil))) {
                try WireCoding.decode(EpisodePageInfo.self, fromFields: $0) == EpisodePageInfo(page, revision: nil)
            },
            GoldenCase("page-info-last", fields: fields(EpisodePageInfo(EpisodePage(episodes: [], total: 0, nextCursor: nil), revision: nil))) {
                let info = try WireCoding.decode(EpisodePageInfo.self, fromFields: $0)
                return info.total == 0 && info.nextCursor == nil
            },
            // `GetEpisode`: the episode's keys and its podcast's title, as PodcastsAdapter sends them.
            GoldenCase("episode", fields: fields(EpisodeWithTitle(episode, podcastTitle: podcast.title))) {
                try WireCoding.decode(EpisodeWithTitle.self, fromFields: $0) == EpisodeWithTitle(episode, podcastTitle: podcast.title)
            },
            GoldenCase("episode-bare", fields: fields(EpisodeWithTitle(bareEpisode, podcastTitle: nil))) {
                try WireCoding.decode(EpisodeWithTitle.self, fromFields: $0) == EpisodeWithTitle(bareEpisode, podcastTitle: nil)
            },
            // `GetQueue`: each episode's keys and its podcast's title, sorted, as PodcastsAdapter builds them.
            GoldenCase("queue", items: list([EpisodeWithTitle(episode, podcastTitle: podcast.title), EpisodeWithTitle(bareEpisode, podcastTitle: nil)])) {
                try WireCoding.decode([EpisodeWithTitle].self, from: $0) == [EpisodeWithTitle(episode, podcastTitle: podcast.title), EpisodeWithTitle(bareEpisode, podcastTitle: nil)]
            },
            GoldenCase("record", fields: fields(record)) { try WireCoding.decode(EpisodeRecord.self, fromFields: $0) == record },
            GoldenCase("record-bare", fields: fields(bareRecord)) { try WireCoding.decode(EpisodeRecord.self, fromFields: $0) == bareRecord },
            GoldenCase("transcript", fields: fields(transcript)) { try WireCoding.decode(Transcript.self, fromFields: $0) == transcript },
            GoldenCase("transcript-bare", fields: fields(bareTranscript)) { try WireCoding.decode(Transcript.self, fromFields: $0) == bareTranscript },
            GoldenCase("moments", items: list(moments)) { try WireCoding.decode([TranscriptMoment].self, from: $0) == moments },
            GoldenCase("moments-none", items: list([TranscriptMoment]())) { try WireCoding.decode([TranscriptMoment].self, from: $0).isEmpty },
            GoldenCase("search", items: list(results)) { try WireCoding.decode([PodcastSearchResult].self, from: $0) == results },
            GoldenCase("listening", items: list(totals)) { try WireCoding.decode([ListeningTotal].self, from: $0) == totals },
            GoldenCase("listening-none", items: list([ListeningTotal]())) { try WireCoding.decode([ListeningTotal].self, from: $0).isEmpty },
            GoldenCase("feed", value: value(feed)) { try WireCoding.decode(ParsedFeed.self, fromFields: try $0.arguments([String: Value].self)) == feed },
            GoldenCase("feed-bare", value: value(ParsedFeed(title: ""))) {
                try WireCoding.decode(ParsedFeed.self, fromFields: try $0.arguments([String: Value].self)) == ParsedFeed(title: "")
            },
        ]
    }
}
