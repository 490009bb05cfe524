public import AlmanacModels
public import DBus

/// One kind of document on the bus beyond its values' shapes: which view options it takes,
/// what a view is sent of the state and of a change, and what `Submit` accepts
/// (`WeatherCodec`, `PodcastsCodec`). The bus layer's `DocumentAdapter` serves a document
/// through its codec; each refusal is an `InvalidArgs` `BusError` naming the key and what
/// to send.
public protocol DocumentCodec {
    associatedtype State
    associatedtype Change
    associatedtype Options: ViewOptions
    /// What a `Submit` asks of the document, read strictly (`WeatherSubmission`, `PodcastsSubmission`).
    associatedtype Submission

    /// Reads a view's options from `AddView`'s or `SetOptions`' `a{sv}`.
    static func viewOptions(_ values: [String: Value]) throws -> Options
    /// A view's slice of the whole state, in `GetState`'s shape: what a view with `options`
    /// is sent as its `resync` after it fell behind.
    static func snapshot(_ state: State, for options: Options) throws -> [String: Value]
    /// What a view with `options` is told of `change`, or `nil` if it is not its concern.
    static func slice(_ change: Change, for options: Options) throws -> [String: Value]?
    /// Reads a `Submit`'s `a{sv}`.
    static func submission(_ values: [String: Value]) throws -> Submission
}
