import Foundation

/// A "bus" that accepts connections and never answers (`Tests/Fixtures/silent_bus.py`):
/// the authentication never ends, or, `afterAuthentication`, it ends and then nothing is
/// answered, `Hello` included. For the tests of a system bus that hangs. Stopped when the
/// value goes away.
public final class SilentBus: Sendable {
    /// Where clients connect (`unix:path=…`).
    public let address: String
    private let directory: URL
    private let process: Tool.Background

    public init(afterAuthentication: Bool = false) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-silent-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=" + socket
        process = try Tool.Background("/usr/bin/python3", [SourceTree.path("Tests/Fixtures/silent_bus.py"), socket]
                                      + (afterAuthentication ? ["--after-auth"] : []))
        guard await process.waitFor("listening") else {
            throw HarnessError(message: "silent_bus.py did not start listening: \(process.output)")
        }
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
