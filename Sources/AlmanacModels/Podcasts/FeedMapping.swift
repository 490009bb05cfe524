import FoundationEssentials

/// Turns a parsed feed into the library's podcast and episodes, with short, stable ids:
/// a podcast's id comes from its feed URL, an episode's from its podcast and GUID, so the
/// same feed read twice gives the same ids.
public enum FeedMapping {
    /// "k3x9q2mz": eight base-36 characters of a 64-bit FNV-1a hash of the feed URL.
    public static func podcastID(feedURL: String) -> String {
        shortHash(feedURL, length: 8)
    }

    /// "k3x9q2mz-7f2p1cq0xa": the podcast's id and ten characters (51 bits) of the GUID's
    /// hash, so that even a feed of 100,000 episodes is unlikely to hold two alike.
    public static func episodeID(podcastID: String, guid: String) -> String {
        podcastID + "-" + shortHash(guid, length: 10)
    }

    /// The podcast a feed describes; a feed without a title is called by its address,
    /// without the user name and password it may hold (a title is shown everywhere).
    public static func podcast(from feed: ParsedFeed, feedURL: String, id: String? = nil) -> Podcast {
        Podcast(id: id ?? podcastID(feedURL: feedURL), title: feed.title.isEmpty ? FeedCredentials.removed(from: feedURL) : feed.title,
                author: feed.author ?? "", feedURL: feedURL)
    }

    /// The feed's episodes for podcast `podcastID`, new and unplayed. Episodes without a date
    /// count as published at the Unix epoch, so they sort last.
    public static func episodes(from feed: ParsedFeed, podcastID: String) -> [Episode] {
        var seen = Set<String>()
        return feed.episodes.compactMap { parsed in
            let id = episodeID(podcastID: podcastID, guid: parsed.guid)
            guard seen.insert(id).inserted else { return nil }
            return Episode(
                id: id, podcastID: podcastID, title: parsed.displayTitle,
                published: Date(timeIntervalSince1970: Double(parsed.published ?? 0)), duration: parsed.duration,
                audioURL: parsed.enclosures.first?.url
            )
        }
    }

    /// Where the feed's older episodes are (RFC 5005 paged or archived feeds), when it says
    /// so with an http or https address.
    public static func olderPagesURL(of feed: ParsedFeed) -> String? {
        guard let url = feed.nextPageURL, let colon = url.firstIndex(of: ":"),
              ["http", "https"].contains(url[..<colon].lowercased()) else { return nil }
        return url
    }

    /// What the feed says beyond the podcast and its episodes: the podcast's art and page,
    /// and each episode's details, by the ids `episodes(from:podcastID:)` gives (the first
    /// item of a GUID wins, as there).
    public static func details(from feed: ParsedFeed, podcastID: String) -> FeedDetails {
        var details = FeedDetails(podcast: PodcastDetails(image: feed.image, link: feed.link, serial: feed.serial ?? false))
        details.episodes.reserveCapacity(feed.episodes.count)
        for parsed in feed.episodes {
            let id = episodeID(podcastID: podcastID, guid: parsed.guid)
            if details.episodes[id] == nil { details.episodes[id] = EpisodeDetails(parsed) }
        }
        return details
    }

    static func shortHash(_ text: String, length: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        var result = ""
        for _ in 0..<length {
            result.append(digits[Int(hash % 36)])
            hash /= 36
        }
        return result
    }
}
