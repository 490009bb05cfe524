extension Task where Success == Never, Failure == Never {
    /// Waits until the current task is cancelled: what a service that only reacts to
    /// others' calls does in `run()`. Costs nothing meanwhile (no timer, no thread).
    public static func untilCancelled() async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        for await _ in stream {}
        withExtendedLifetime(continuation) {}
    }
}
