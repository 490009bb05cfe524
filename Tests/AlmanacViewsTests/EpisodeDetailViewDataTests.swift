import AlmanacModels
@testable import AlmanacViews
import Foundation
import TestHarness
import Testing

/// `almanac episode show`'s view data: from the daemon's record to notes with numbered
/// links, chapters and the rest, laid out at 80 and 120 columns, and its `--json`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct EpisodeDetailViewDataTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    static let notes = "Über the Baltic and the North Sea — see the map.\n\nThanks to Ada, and to 日本 listeners."
    static func end(of words: String, in text: String = notes) -> Int {
        text.utf8.count - text[text.range(of: words)!.upperBound...].utf8.count
    }
    static let record = EpisodeRecord(
        episode: Episode(id: "p1-abc", podcastID: "p1", title: "Seas of the North: a long title that goes on past the width of a narrow terminal",
                         published: now.addingTimeInterval(-3 * 86_400), duration: 3_600, isNew: false, position: 900, audioURL: "https://e/a.mp3"),
        podcastTitle: "The Almanac Hour", podcast: PodcastDetails(image: "https://e/cover.jpg"),
        details: EpisodeDetails(
            link: "https://almanac.example/episodes/seas", description: "<p>…</p>", descriptionText: notes,
            descriptionLinks: [
                FeedLink(url: "https://e/baltic", end: end(of: "Über the Baltic")),
                FeedLink(url: "https://e/map", end: end(of: "the map")),
                FeedLink(url: "https://e/baltic", end: end(of: "North Sea")),
                FeedLink(url: "https://e/japan", end: end(of: "日本")),
            ],
            image: "https://e/seas.jpg", explicit: true, episodeType: "bonus", season: 2, episode: 7, chaptersURL: "https://e/seas.json",
            transcripts: [FeedTranscript(url: "https://e/seas.vtt", type: "text/vtt", language: "en")],
            persons: [FeedPerson(name: "Ada Almanac", role: "host"), FeedPerson(name: "Bo")]
        ),
        chapters: [FeedChapter(start: 0, title: "Intro"), FeedChapter(start: 750.5, title: "Deltas and estuaries of every river that reaches the sea", url: "https://e/map"),
                   FeedChapter(start: 3_725, title: "", url: "https://e/late")],
        chaptersSource: .json
    )
    static let view = EpisodeDetailViewData(record: record, now: now, clockOffset: { _ in 3_600 })

    @Test func linksAreNumberedOnceAndMarkedAfterTheirWords() {
        #expect(Self.view.notes == "Über the Baltic[1] and the North Sea[1] — see the map[2].\n\nThanks to Ada, and to 日本[3] listeners.")
        // The chapters' links continue the numbering, a known address keeps its number.
        #expect(Self.view.links == ["https://e/baltic", "https://e/map", "https://e/japan", "https://e/late"])
        #expect(Self.view.chapters.map(\.link) == [nil, 2, 4])
        #expect(Self.view.chapters.map(\.start) == ["0:00", "12:30", "1:02:05"])
        #expect(Self.view.chapters.last?.title == "(untitled)")
    }

    @Test(arguments: [(0, "a[1]éc"), (1, "a[1]éc"), (2, "aé[1]c"), (3, "aé[1]c"), (4, "aéc[1]"), (99, "aéc[1]")])
    func aMarkerInsideACharacterGoesAfterIt(end: Int, marked: String) {
        #expect(EpisodeDetailViewData.marked("aéc", [FeedLink(url: "u", end: end)], number: { _ in 1 }) == marked)
    }

    @Test func numberingAndFlags() {
        #expect(Self.view.numbering == "Season 2, episode 7" && Self.view.kind == "bonus" && Self.view.explicit == true)
        #expect(EpisodeDetailViewData.numbering(season: nil, episode: 12) == "Episode 12")
        #expect(EpisodeDetailViewData.numbering(season: 3, episode: nil) == "Season 3")
        #expect(Self.view.publishedDay == "2027-01-12" && Self.view.people == "Ada Almanac (host), Bo")
    }

    @Test func at120ColumnsEverythingShows() {
        let lines = Self.view.lines(width: 120).map(\.plain)
        #expect(lines == [
            "Seas of the North: a long title that goes on past the width of a narrow terminal",
            "The Almanac Hour · 2027-01-12 (3 days ago) · 1:00:00 · 25% complete, 45 min left",
            "Season 2, episode 7 · bonus · explicit",
            "https://almanac.example/episodes/seas",
            "",
            "Über the Baltic[1] and the North Sea[1] — see the map[2].",
            "",
            "Thanks to Ada, and to 日本[3] listeners.",
            "",
            "Chapters",
            "     0:00  Intro",
            "    12:30  Deltas and estuaries of every river that reaches the sea[2]",
            "  1:02:05  (untitled)[4]",
            "",
            "Links",
            "  [1] https://e/baltic",
            "  [2] https://e/map",
            "  [3] https://e/japan",
            "  [4] https://e/late",
            "",
            "People: Ada Almanac (host), Bo",
            "Transcript: https://e/seas.vtt (text/vtt, en)",
            "Art: https://e/seas.jpg",
            "Podcast art: https://e/cover.jpg",
        ])
    }

    @Test(arguments: [40, 80])
    func narrowerNothingButAddressesPassesTheWidth(width: Int) {
        let lines = Self.view.lines(width: width)
        for line in lines where !line.plain.contains("https://") {
            #expect(line.width <= width, "\(line.plain)")
        }
        // Nothing is lost: the words of the notes and of the title are all there, the addresses whole.
        let text = lines.map(\.plain).joined(separator: " ")
        for word in (Self.notes + " " + Self.record.episode.title).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let trimmed = word.trimmingCharacters(in: .punctuationCharacters)
            if !trimmed.isEmpty { #expect(text.contains(trimmed), "\(word)") }
        }
        for url in Self.view.links { #expect(lines.contains { $0.plain.hasSuffix(url) }) }
    }

    @Test func anEpisodeKeptBeforeDetailsSaysTheNotesComeWithTheNextRefresh() {
        let view = EpisodeDetailViewData(record: EpisodeRecord(episode: Self.record.episode, podcastTitle: "The Almanac Hour"), now: Self.now)
        let lines = view.lines(width: 80).map(\.plain)
        #expect(lines.contains("Show notes not read yet: they come with the podcast's next refresh (`almanac"))
        #expect(!lines.contains("Chapters") && !lines.contains("Links"))
        let noted = EpisodeDetailViewData(record: EpisodeRecord(episode: Self.record.episode, details: EpisodeDetails(),
                                                                chaptersNote: "https://e/x.json is not chapters JSON: it has no \"chapters\" list."), now: Self.now)
        #expect(noted.lines(width: 80).map(\.plain).suffix(4) == ["No show notes.", "", "Chapters", "  https://e/x.json is not chapters JSON: it has no \"chapters\" list."])
    }

    @Test func jsonHasMachineValues() throws {
        let data = try JSONEncoder().encode(Self.view)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["published"] as? String == "2027-01-12T09:00:00+01:00" && object["publishedUnix"] as? Int == 1_799_740_800)
        #expect(object["duration"] as? Double == 3_600 && object["position"] as? Double == 900)
        #expect(object["season"] as? Int == 2 && object["episode"] as? Int == 7 && object["episodeType"] as? String == "bonus")
        #expect(object["explicit"] as? Bool == true && object["detailsKnown"] as? Bool == true)
        #expect(object["podcast"] as? String == "The Almanac Hour" && object["podcastImage"] as? String == "https://e/cover.jpg")
        #expect(object["notes"] as? String == Self.view.notes && object["descriptionText"] as? String == Self.notes)
        let links = try #require(object["links"] as? [[String: Any]])
        #expect(links.map { $0["number"] as? Int } == [1, 2, 3, 4] && links.first?["url"] as? String == "https://e/baltic")
        let chapters = try #require(object["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["startTime"] as? Double } == [0, 750.5, 3_725])
        #expect(chapters[1]["startText"] as? String == "12:30" && chapters[1]["url"] as? String == "https://e/map" && chapters[1]["link"] as? Int == 2)
        #expect(chapters[0]["url"] is NSNull && object["chaptersNote"] is NSNull && object["chaptersSource"] as? String == "json")
        #expect((object["persons"] as? [[String: Any]])?.first?["role"] as? String == "host")
        #expect((object["transcripts"] as? [[String: Any]])?.first?["language"] as? String == "en")
    }

    @Test(arguments: [
        ("one two three four", 9, "", ["one two", "three", "four"]),
        ("para one\n\npara two", 20, "", ["para one", "", "para two"]),
        ("https://a.example/very/long/address", 12, "", ["https://a.ex", "ample/very/l", "ong/address"]),
        ("People: Ada, Bo, Cy, Di", 12, "  ", ["People: Ada,", "  Bo, Cy, Di"]),
        ("日本語の文です", 5, "", ["日本", "語の", "文で", "す"]),
        ("", 10, "", [""]),
    ])
    func wrappingKeepsParagraphsAndTheWidth(text: String, width: Int, indent: String, lines: [String]) {
        #expect(wrapped(text, width: width, indent: indent) == lines)
    }
}
