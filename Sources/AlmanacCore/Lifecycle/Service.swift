/// A long-running part of the daemon (a scheduler, the downloads, the notifier…), run by a
/// `ServiceGroup`: made ready in order, run until its task is cancelled, stopped in reverse.
public protocol Service: Sendable {
    /// Gets ready: what must be in place before the next service of the group starts (the
    /// group awaits it, in order). Nothing by default.
    func prepare() async throws
    /// Runs until its task is cancelled, then undoes what it did and returns. Returning or
    /// throwing before that ends the group.
    func run() async throws
}

extension Service {
    public func prepare() async throws {}
}
