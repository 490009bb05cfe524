public import AlmanacCore
import Logging

/// Runs `services` for the body of a test as the daemon runs its parts: each made ready
/// (`prepare`) and started in order by a `ServiceGroup`, the body run once all are ready,
/// then each stopped in reverse; returns the body's result once every service has ended.
/// A service that ends or throws by itself stops the others, and its error is thrown after
/// the body; services that do not stop within the group's deadline are an error too.
///
///     try await whileRunning(manager) {
///         _ = try manager.download("e1", for: ":1.1")
///         #expect(await eventually { downloader.episodesRunning == ["e1"] })
///     }
///     #expect(downloader.episodesRunning.isEmpty, "stopping ended the transfer")
public func whileRunning<Result>(_ services: any Service..., isolation: isolated (any Actor)? = #isolation,
                                 _ body: () async throws -> Result) async throws -> Result {
    // A minute to stop, the harness's budget for what must happen (not the daemon's deadline:
    // a busy machine must not fail a test whose services stop slowly).
    let group = ServiceGroup(services, stopDeadline: .seconds(60), logger: Logger(label: "almanac.test.services"))
    return try await withThrowingTaskGroup(of: [String].self, returning: Result.self) { tasks in
        tasks.addTask { try await group.run() }
        try await group.started()
        let result = try await body()
        group.shutdown()
        for try await left in tasks where !left.isEmpty {
            throw HarnessError(message: "these services did not stop within a minute: \(left.joined(separator: ", "))")
        }
        return result
    }
}
