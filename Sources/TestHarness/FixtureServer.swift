public import Foundation

/// A local HTTP server for tests, run from a Python script under `Tests/Fixtures` that
/// prints its port first. Listens on 127.0.0.1 only; stopped when the value goes away.
public final class FixtureServer: Sendable {
    /// `http://127.0.0.1:<port>`
    public let baseURL: URL
    private let process: ChildProcess

    public init(script: String, arguments: [String] = []) throws {
        process = try ChildProcess(PrivateBus.find("python3"), [script] + arguments)
        guard let line = process.firstLine(timeout: 20), let port = Int(line) else {
            throw HarnessError(message: "the fixture server \(script) did not print its port")
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit {
        process.send(SIGTERM)
        process.wait()
    }
}
