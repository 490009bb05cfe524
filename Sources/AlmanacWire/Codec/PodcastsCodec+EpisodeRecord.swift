public import AlmanacModels
public import DBus

/// One episode's full record (`Podcasts1.GetEpisodeDetails`) as `a{sv}` and back. The keys
/// of an episode in `ListEpisodes`, `podcastTitle`, and what the library keeps beyond
/// (docs/bus-api.md): the lists and the notes are always there (perhaps empty), anything
/// else the feed did not give is left out.
extension PodcastsCodec {
    public static func encode(_ record: EpisodeRecord) -> [String: Value] {
        var fields = (encode(record.episode).stringKeyedEntries ?? [:]).mapValues(\.unwrapped)
        fields["podcastTitle"] = record.podcastTitle.map(Value.string)
        fields["podcastImage"] = record.podcast.image.map(Value.string)
        fields["podcastLink"] = record.podcast.link.map(Value.string)
        fields["detailsKnown"] = .boolean(record.details != nil)
        let details = record.details ?? EpisodeDetails()
        fields["description"] = .string(details.description)
        fields["descriptionText"] = .string(details.descriptionText)
        fields["links"] = FeedCodec.list(details.descriptionLinks.map { FeedCodec.dictionary(["url": .string($0.url), "end": .uint32(UInt32(clamping: $0.end))]) })
        fields["link"] = details.link.map(Value.string)
        fields["image"] = details.image.map(Value.string)
        fields["explicit"] = details.explicit.map(Value.boolean)
        fields["episodeType"] = details.episodeType.map(Value.string)
        fields["season"] = details.season.map { .int64(Int64($0)) }
        fields["episode"] = details.episode.map { .int64(Int64($0)) }
        fields["chaptersURL"] = details.chaptersURL.map(Value.string)
        fields["transcripts"] = FeedCodec.list(details.transcripts.map { transcript in
            var entry: [String: Value] = ["url": .string(transcript.url)]
            entry["type"] = transcript.type.map(Value.string)
            entry["language"] = transcript.language.map(Value.string)
            return FeedCodec.dictionary(entry)
        })
        fields["persons"] = FeedCodec.list(details.persons.map(FeedCodec.encode))
        fields["chapters"] = FeedCodec.list(record.chapters.map { chapter in
            var entry: [String: Value] = ["startTime": .double(chapter.start), "title": .string(chapter.title)]
            entry["url"] = chapter.url.map(Value.string)
            entry["image"] = chapter.image.map(Value.string)
            return FeedCodec.dictionary(entry)
        })
        fields["chaptersSource"] = record.chaptersSource.map { .string($0.rawValue) }
        fields["chaptersNote"] = record.chaptersNote.map(Value.string)
        return fields
    }

    /// The record `encode` made; `nil` without an episode id.
    public static func decodeRecord(_ fields: [String: Value]) -> EpisodeRecord? {
        guard let episode = decodeEpisode(fields.asVariantDictionary) else { return nil }
        var record = EpisodeRecord(episode: episode, podcastTitle: fields["podcastTitle"]?.stringValue,
                                   podcast: PodcastDetails(image: fields["podcastImage"]?.stringValue, link: fields["podcastLink"]?.stringValue))
        if fields["detailsKnown"]?.unwrapped == .boolean(true) {
            record.details = EpisodeDetails(
                link: fields["link"]?.stringValue, description: fields["description"]?.stringValue ?? "",
                descriptionText: fields["descriptionText"]?.stringValue ?? "",
                descriptionLinks: items(fields["links"]).compactMap { entry in
                    guard let url = entry["url"]?.stringValue, let end = entry["end"]?.integerValue else { return nil }
                    return FeedLink(url: url, end: Int(clamping: end))
                },
                image: fields["image"]?.stringValue, explicit: flag(fields["explicit"]), episodeType: fields["episodeType"]?.stringValue,
                season: fields["season"]?.integerValue.map { Int(clamping: $0) }, episode: fields["episode"]?.integerValue.map { Int(clamping: $0) },
                chaptersURL: fields["chaptersURL"]?.stringValue,
                transcripts: items(fields["transcripts"]).compactMap { entry in
                    entry["url"]?.stringValue.map { FeedTranscript(url: $0, type: entry["type"]?.stringValue, language: entry["language"]?.stringValue) }
                },
                persons: items(fields["persons"]).compactMap { FeedCodec.decodePerson($0.asVariantDictionary) }
            )
        }
        record.chapters = items(fields["chapters"]).compactMap { entry in
            guard case .double(let start)? = entry["startTime"]?.unwrapped else { return nil }
            return FeedChapter(start: start, title: entry["title"]?.stringValue ?? "", url: entry["url"]?.stringValue, image: entry["image"]?.stringValue)
        }
        record.chaptersSource = fields["chaptersSource"]?.stringValue.flatMap(EpisodeRecord.ChaptersSource.init(rawValue:))
        record.chaptersNote = fields["chaptersNote"]?.stringValue
        return record
    }

    private static func items(_ value: Value?) -> [[String: Value]] {
        guard case .array(_, let items)? = value?.unwrapped else { return [] }
        return items.compactMap(\.stringKeyedEntries)
    }

    /// A boolean (`b`); `nil` when it is not one.
    static func flag(_ value: Value?) -> Bool? {
        guard case .boolean(let flag)? = value?.unwrapped else { return nil }
        return flag
    }
}
