/// Someone credited by a feed or an episode (`<podcast:person>`).
public struct FeedPerson: Sendable, Hashable, Codable {
    /// Plain text.
    public var name: String
    /// Such as `host` or `guest`; nil when the feed does not say.
    public var role: String?
    /// A page about the person.
    public var href: String?
    /// A picture of the person.
    public var image: String?

    /// A person credited as `name`.
    public init(name: String, role: String? = nil, href: String? = nil, image: String? = nil) {
        self.name = name
        self.role = role
        self.href = href
        self.image = image
    }
}
