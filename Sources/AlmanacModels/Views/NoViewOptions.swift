/// The options of a document whose views all watch everything (downloads, the sync's status).
public struct NoViewOptions: ViewOptions {
    /// The only options there are.
    public init() {}
}
