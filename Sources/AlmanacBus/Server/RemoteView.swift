import AlmanacCore
public import AlmanacModels
public import AlmanacWire
public import DBus

/// A view a client registered with `AddView`: who owns it and what it watches.
public struct RemoteView<Options: ViewOptions>: Sendable {
    public let path: ObjectPath
    public let owner: BusName
    /// The options as the client sent them (the `Options` property).
    public var rawOptions: [String: Value]
    /// The options as the document reads them.
    public var options: Options
    /// Its updates sent and not yet acknowledged, and whether it fell behind.
    public var window = UpdateWindow()
    /// Its list, made on its first `LoadMore`/`RefreshList`; gone with new options.
    var pages: ViewPages?
}
