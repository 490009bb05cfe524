/// What a view of a document watches, from its `AddView`/`SetOptions` options: its data
/// source, as a typed value (`WeatherViewOptions`, `PodcastsViewOptions`).
public protocol ViewOptions: Sendable, Hashable {
    /// Options that name nothing: a view of everything.
    init()
}

extension ViewOptions {
    /// Whether the options name nothing (a view of everything, which no fetch starts for).
    public var namesNothing: Bool { self == Self() }
}
