extension Setting {
    /// The part of the daemon's state a setting belongs to; its raw value is the document's
    /// name and its store keys' prefix.
    public enum Section: String, CaseIterable, Sendable, Hashable {
        case weather
        case podcasts
    }
}
