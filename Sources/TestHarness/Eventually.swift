/// Asks `condition` every `interval` until it holds or `timeout` has passed, and says whether
/// it held: the one way tests wait for something another thread, process or bus peer does.
/// The default timeout is generous: on two cores the suite's CPU-bound tests can keep the
/// concurrency pool busy for many seconds, and a task a test waits for waits with them.
/// Asked once more at the end, so a slow last answer still counts; a cancelled wait asks once
/// and returns.
///
///     #expect(await eventually { downloader.episodesRunning == ["e1"] })
@discardableResult
public func eventually(timeout: Duration = .seconds(60), every interval: Duration = .milliseconds(20),
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    try await eventually(timeout: timeout, every: interval) { try await condition() ? true : nil } ?? false
}

/// Asks `value` every `interval` until it gives something or `timeout` has passed; what it
/// gave, or `nil`.
///
///     let job = try await eventually { try await jobs().first { $0["state"] == "completed" } }
public func eventually<Value>(timeout: Duration = .seconds(60), every interval: Duration = .milliseconds(20),
                              _ value: () async throws -> Value?) async rethrows -> Value? {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let found = try await value() { return found }
        guard ContinuousClock.now < deadline else { return nil }
        do {
            try await Task.sleep(for: interval)
        } catch {
            return try await value()
        }
    }
}
