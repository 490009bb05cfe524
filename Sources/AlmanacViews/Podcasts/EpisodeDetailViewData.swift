public import AlmanacModels
public import FoundationEssentials

/// One episode in full, as `almanac episode show` prints it: the list row's words
/// (`EpisodeViewData`), its numbering and flags, the show notes as text with each link's
/// number after the words it was on ("clouds[1]") and the links listed by number, the
/// chapters with their start times, people, transcripts and art. Built once from the
/// daemon's record; the terminal layout (`lines(width:)`) and `--json` read only this.
public struct EpisodeDetailViewData: Sendable, Hashable, JSONRepresentable {
    /// Title, podcast, age, length, progress, as in a list.
    public let episode: EpisodeViewData
    /// "2026-11-20": the day it was published, on the user's clock ("" when unknown).
    public let publishedDay: String
    /// "Season 2, episode 7", "Episode 7", "Season 2" or "".
    public let numbering: String
    public let season: Int?
    /// The episode's number in its season or show.
    public let episodeNumber: Int?
    /// "trailer" or "bonus"; "" for a full episode or when the feed does not say.
    public let kind: String
    public let episodeType: String?
    public let explicit: Bool?
    /// The episode's web page, or "".
    public let link: String
    /// The episode's own art, or "".
    public let image: String
    /// The podcast's art, or "".
    public let podcastImage: String
    /// Whether the notes and the rest were read: `false` for an episode kept before Almanac
    /// kept them, until its feed is read again.
    public let detailsKnown: Bool
    /// The notes as the feed gave them (HTML) and as plain text.
    public let description: String
    public let descriptionText: String
    /// `descriptionText` with "[n]" after the words of each link, n its number in `links`.
    public let notes: String
    /// The addresses the notes and the chapters link to, each once, numbered from 1 in order.
    public let links: [String]
    public let chapters: [ChapterViewData]
    /// "json" (the chapters file), "feed" (Podlove Simple Chapters) or `nil` without chapters.
    public let chaptersSource: String?
    /// Why the chapters are not all there, or "".
    public let chaptersNote: String
    public let persons: [FeedPerson]
    public let transcripts: [FeedTranscript]

    /// `clockOffset`: the user's offset from UTC, in seconds, at a date.
    public init(record: EpisodeRecord, now: Date, clockOffset: (Date) -> Int = { _ in 0 }) {
        let details = record.details ?? EpisodeDetails()
        episode = EpisodeViewData(episode: record.episode, podcast: record.podcastTitle.map { Podcast(id: record.episode.podcastID, title: $0, author: "", feedURL: "") },
                                  now: now, clockOffset: clockOffset)
        publishedDay = record.episode.knownPublished.map { String(isoTimestamp($0, utcOffset: clockOffset($0)).prefix(10)) } ?? ""
        numbering = Self.numbering(season: details.season, episode: details.episode)
        season = details.season
        episodeNumber = details.episode
        episodeType = details.episodeType
        kind = details.episodeType == "full" ? "" : details.episodeType ?? ""
        explicit = details.explicit
        link = details.link ?? ""
        image = details.image ?? ""
        podcastImage = record.podcast.image ?? ""
        detailsKnown = record.details != nil
        description = details.description
        descriptionText = details.descriptionText
        var numbers: [String: Int] = [:]
        var links: [String] = []
        func number(_ url: String) -> Int {
            if let known = numbers[url] { return known }
            links.append(url)
            numbers[url] = links.count
            return links.count
        }
        notes = Self.marked(details.descriptionText, details.descriptionLinks, number: number)
        chapters = record.chapters.map { ChapterViewData(chapter: $0, link: $0.url.map(number)) }
        self.links = links
        chaptersSource = record.chapters.isEmpty ? nil : record.chaptersSource?.rawValue
        chaptersNote = record.chaptersNote ?? ""
        persons = details.persons
        transcripts = details.transcripts
    }

    /// "Season 2, episode 7".
    static func numbering(season: Int?, episode: Int?) -> String {
        switch (season, episode) {
        case (let season?, let episode?): "Season \(season), episode \(episode)"
        case (let season?, nil): "Season \(season)"
        case (nil, let episode?): "Episode \(episode)"
        case (nil, nil): ""
        }
    }

    /// `text` with "[n]" after the words of each link (`end`: UTF-8 bytes into `text`; one
    /// inside a character counts from that character's end, one past the text at its end).
    static func marked(_ text: String, _ links: [FeedLink], number: (String) -> Int) -> String {
        guard !links.isEmpty else { return text }
        var ends: [Int: [Int]] = [:]
        var numbered: [(end: Int, number: Int)] = []
        for link in links { numbered.append((max(1, link.end), number(link.url))) }
        for (end, number) in numbered where !(ends[end]?.contains(number) ?? false) { ends[end, default: []].append(number) }
        let stops = ends.keys.sorted()
        var result = ""
        var offset = 0
        var next = 0
        for character in text {
            result.append(character)
            offset += character.utf8.count
            while next < stops.count, stops[next] <= offset {
                result += ends[stops[next], default: []].map { "[\($0)]" }.joined()
                next += 1
            }
        }
        while next < stops.count {
            result += ends[stops[next], default: []].map { "[\($0)]" }.joined()
            next += 1
        }
        return result
    }

    /// "Ada (host), Bob (guest)".
    public var people: String {
        persons.map { person in person.role.map { "\(person.name) (\($0))" } ?? person.name }.joined(separator: ", ")
    }

    /// `--json` (docs/cli.md, "JSON keys"): the keys of an episode in a list, and the details.
    public var json: JSONValue {
        guard case .object(var object) = episode.json else { return episode.json }
        let number = { (value: Int?) in value.map { JSONValue.integer(Int64($0)) } ?? .null }
        object["publishedDay"] = .text(publishedDay)
        object["season"] = number(season)
        object["episode"] = number(episodeNumber)
        object["episodeType"] = .text(episodeType)
        object["explicit"] = explicit.map(JSONValue.boolean) ?? .null
        object["link"] = .text(link)
        object["image"] = .text(image)
        object["podcastImage"] = .text(podcastImage)
        object["detailsKnown"] = .boolean(detailsKnown)
        object["description"] = .string(description)
        object["descriptionText"] = .string(descriptionText)
        object["notes"] = .string(notes)
        object["links"] = .array(links.enumerated().map { .object(["number": .integer(Int64($0.offset + 1)), "url": .string($0.element)]) })
        object["chapters"] = .array(chapters.map(\.json))
        object["chaptersSource"] = .text(chaptersSource)
        object["chaptersNote"] = .text(chaptersNote)
        object["persons"] = .array(persons.map { .object(["name": .string($0.name), "role": .text($0.role), "href": .text($0.href), "image": .text($0.image)]) })
        object["transcripts"] = .array(transcripts.map { .object(["url": .string($0.url), "type": .text($0.type), "language": .text($0.language)]) })
        return .object(object)
    }
}
