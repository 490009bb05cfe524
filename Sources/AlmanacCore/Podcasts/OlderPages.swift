/// What the library knows of a podcast's older pages: the pages of a paged or archived feed
/// (RFC 5005: `atom:link rel="next"` or `rel="prev-archive"`) that hold episodes older than
/// its subscription document lists.
public enum OlderPages: Sendable, Hashable {
    /// The feed announced none.
    case none
    /// The next older page not read yet.
    case at(String)
    /// Every older page was read (a list paged past the library to the feed's end): a
    /// refresh that finds the feed announcing its second page again does not start over.
    case readToTheEnd

    /// The page to read next, if any.
    public var next: String? {
        if case .at(let url) = self { url } else { nil }
    }
}
