/// A transcript of an episode (`<podcast:transcript>`).
public struct FeedTranscript: Sendable, Hashable, Codable {
    /// Where the transcript is.
    public var url: String
    /// MIME type, such as `text/vtt` or `application/x-subrip`.
    public var type: String?
    /// Language code, such as `en`.
    public var language: String?

    /// A transcript at `url`.
    public init(url: String, type: String? = nil, language: String? = nil) {
        self.url = url
        self.type = type
        self.language = language
    }
}
