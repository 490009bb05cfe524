/// A link in an episode's notes (`<a href>`): where it leads, and where the words it was
/// on end in the notes' plain text, so a view can mark them (`clouds [1]`) and list the
/// address below.
public struct FeedLink: Sendable, Hashable, Codable {
    /// The address, resolved against the feed's.
    public var url: String
    /// Where the linked words end in `descriptionText`, in UTF-8 bytes from its start.
    public var end: Int

    /// A link to `url` whose words end `end` bytes into the plain text.
    public init(url: String, end: Int) {
        self.url = url
        self.end = end
    }
}
