/// A long-running part of the daemon (a scheduler, the downloads, the notifier…), run by a
/// `ServiceGroup`: made ready in order, run until its task is cancelled, stopped in reverse.
public protocol Service: Sendable {
    /// What the group calls it in the log (the line naming the services that did not stop in
    /// time): its type's name unless it says otherwise.
    var name: String { get }
    /// Gets ready: what must be in place before the next service of the group starts (the
    /// group awaits it, in order). Nothing by default.
    func prepare() async throws
    /// Runs until its task is cancelled, then undoes what it did and returns. Returning or
    /// throwing before that ends the group.
    func run() async throws
}

extension Service {
    public var name: String { String(describing: type(of: self)) }

    public func prepare() async throws {}
}
