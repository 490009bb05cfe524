public import AlmanacModels
public import DBus

/// A parsed feed as `a{sv}` (`Podcasts1.Inspect`). Keys are the model's field names, stable;
/// a field the feed did not have is left out rather than sent empty.
public enum FeedCodec {
    public static func encode(_ feed: ParsedFeed) -> Value {
        var fields: [String: Value] = [
            "title": .string(feed.title),
            "description": .string(feed.description),
            "descriptionText": .string(feed.descriptionText),
            "categories": .array(.string, feed.categories.map(Value.string)),
            "funding": list(feed.funding.map { dictionary(["url": .string($0.url), "text": .string($0.text)]) }),
            "persons": list(feed.persons.map(encode)),
            "episodes": list(feed.episodes.map(encode)),
        ]
        fields["link"] = feed.link.map(Value.string)
        fields["author"] = feed.author.map(Value.string)
        fields["language"] = feed.language.map(Value.string)
        fields["image"] = feed.image.map(Value.string)
        fields["explicit"] = feed.explicit.map(Value.boolean)
        fields["newFeedURL"] = feed.newFeedURL.map(Value.string)
        fields["nextPageURL"] = feed.nextPageURL.map(Value.string)
        fields["locked"] = feed.locked.map(Value.boolean)
        return dictionary(fields)
    }

    public static func encode(_ episode: ParsedEpisode) -> Value {
        var fields: [String: Value] = [
            "guid": .string(episode.guid),
            "title": .string(episode.title),
            "description": .string(episode.description),
            "descriptionText": .string(episode.descriptionText),
            "enclosures": list(episode.enclosures.map { enclosure in
                var fields: [String: Value] = ["url": .string(enclosure.url)]
                fields["length"] = enclosure.length.map(Value.int64)
                fields["type"] = enclosure.type.map(Value.string)
                return dictionary(fields)
            }),
            "transcripts": list(episode.transcripts.map { transcript in
                var fields: [String: Value] = ["url": .string(transcript.url)]
                fields["type"] = transcript.type.map(Value.string)
                fields["language"] = transcript.language.map(Value.string)
                return dictionary(fields)
            }),
            "persons": list(episode.persons.map(encode)),
        ]
        fields["link"] = episode.link.map(Value.string)
        fields["published"] = episode.published.map(Value.int64)
        fields["duration"] = episode.duration.map(Value.double)
        fields["image"] = episode.image.map(Value.string)
        fields["explicit"] = episode.explicit.map(Value.boolean)
        fields["episodeType"] = episode.episodeType.map(Value.string)
        fields["season"] = episode.season.map { .int64(Int64($0)) }
        fields["episode"] = episode.episode.map { .int64(Int64($0)) }
        fields["chaptersURL"] = episode.chaptersURL.map(Value.string)
        return dictionary(fields)
    }

    static func encode(_ person: FeedPerson) -> Value {
        WireEncoder.dictionary(person)
    }

    static func dictionary(_ fields: [String: Value]) -> Value {
        .dictionary(key: .string, value: .variant, fields.sorted { $0.key < $1.key }.map { Value.DictionaryEntry(.string($0.key), .variant($0.value)) })
    }

    static func list(_ items: [Value]) -> Value {
        .array(.dictionary(key: .string, value: .variant), items)
    }

    /// The feed `encode` made (fields a client left out take their defaults).
    public static func decode(_ value: Value) -> ParsedFeed? {
        guard let fields = value.stringKeyedEntries, let title = fields["title"]?.stringValue else { return nil }
        var feed = ParsedFeed(title: title)
        feed.link = fields["link"]?.stringValue
        feed.description = fields["description"]?.stringValue ?? ""
        feed.descriptionText = fields["descriptionText"]?.stringValue ?? ""
        feed.author = fields["author"]?.stringValue
        feed.language = fields["language"]?.stringValue
        feed.image = fields["image"]?.stringValue
        feed.explicit = flag(fields["explicit"])
        feed.newFeedURL = fields["newFeedURL"]?.stringValue
        feed.nextPageURL = fields["nextPageURL"]?.stringValue
        feed.locked = flag(fields["locked"])
        feed.categories = items(fields["categories"]).compactMap(\.stringValue)
        feed.funding = items(fields["funding"]).compactMap { item in
            guard let entry = item.stringKeyedEntries, let url = entry["url"]?.stringValue else { return nil }
            return FeedFunding(url: url, text: entry["text"]?.stringValue ?? "")
        }
        feed.persons = items(fields["persons"]).compactMap(decodePerson)
        feed.episodes = items(fields["episodes"]).compactMap(decodeEpisode)
        return feed
    }

    public static func decodeEpisode(_ value: Value) -> ParsedEpisode? {
        guard let fields = value.stringKeyedEntries, let guid = fields["guid"]?.stringValue else { return nil }
        var episode = ParsedEpisode(guid: guid, title: fields["title"]?.stringValue ?? "")
        episode.link = fields["link"]?.stringValue
        episode.description = fields["description"]?.stringValue ?? ""
        episode.descriptionText = fields["descriptionText"]?.stringValue ?? ""
        episode.published = fields["published"]?.integerValue
        if case .double(let duration)? = fields["duration"]?.unwrapped { episode.duration = duration }
        episode.enclosures = items(fields["enclosures"]).compactMap { item in
            guard let entry = item.stringKeyedEntries, let url = entry["url"]?.stringValue else { return nil }
            return FeedEnclosure(url: url, length: entry["length"]?.integerValue, type: entry["type"]?.stringValue)
        }
        episode.image = fields["image"]?.stringValue
        episode.explicit = flag(fields["explicit"])
        episode.episodeType = fields["episodeType"]?.stringValue
        episode.season = fields["season"]?.integerValue.map { Int($0) }
        episode.episode = fields["episode"]?.integerValue.map { Int($0) }
        episode.chaptersURL = fields["chaptersURL"]?.stringValue
        episode.transcripts = items(fields["transcripts"]).compactMap { item in
            guard let entry = item.stringKeyedEntries, let url = entry["url"]?.stringValue else { return nil }
            return FeedTranscript(url: url, type: entry["type"]?.stringValue, language: entry["language"]?.stringValue)
        }
        episode.persons = items(fields["persons"]).compactMap(decodePerson)
        return episode
    }

    static func decodePerson(_ value: Value) -> FeedPerson? {
        guard let entry = value.stringKeyedEntries, let name = entry["name"]?.stringValue else { return nil }
        return FeedPerson(name: name, role: entry["role"]?.stringValue, href: entry["href"]?.stringValue, image: entry["image"]?.stringValue)
    }

    private static func items(_ value: Value?) -> [Value] {
        guard case .array(_, let items)? = value?.unwrapped else { return [] }
        return items
    }

    private static func flag(_ value: Value?) -> Bool? {
        guard case .boolean(let flag)? = value?.unwrapped else { return nil }
        return flag
    }
}
