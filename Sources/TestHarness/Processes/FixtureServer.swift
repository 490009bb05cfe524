public import Foundation

/// A local HTTP server for tests, run from a Python script under `Tests/Fixtures` that
/// prints its port first. Listens on 127.0.0.1 only, or on a `TestHost`'s address (the
/// script binds where `FIXTURE_HOST` says); stopped when the value goes away.
public final class FixtureServer: Sendable {
    /// `http://127.0.0.1:<port>`, or the test host's address and port.
    public let baseURL: URL
    private let process: ChildProcess
    /// The host it runs on, kept until the server has stopped.
    private let host: TestHost?

    /// Starts `script` (a path) with `arguments` (and `environment` added to the test's), on
    /// `host` when given; waits for it to print its port.
    public init(script: String, arguments: [String] = [], environment: [String: String] = [:], on host: TestHost? = nil) throws {
        let python = try PrivateBus.find("python3")
        if let host {
            var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            merged["FIXTURE_HOST"] = host.address
            process = try ChildProcess(URL(fileURLWithPath: TestHost.program), host.command([python.path, script] + arguments), environment: merged)
        } else {
            process = try ChildProcess(python, [script] + arguments,
                                       environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 })
        }
        self.host = host
        guard let line = process.firstLine(timeout: 60), let port = Int(line) else {
            throw HarnessError(message: "the fixture server \(script) did not print its port")
        }
        baseURL = URL(string: "http://\(host?.address ?? "127.0.0.1"):\(port)")!
    }

    deinit {
        process.send(SIGTERM)
        process.wait()
    }
}

extension FixtureServer {
    /// `Tests/Fixtures/open_meteo_server.py`: answers like Open-Meteo's forecast and
    /// geocoding APIs, and can be told to fail (`/control?fail=N`). Its dates follow the
    /// computer's clock, or `clock`'s simulated time (`SimulatedClockFile`) when given.
    public static func openMeteo(clock: SimulatedClockFile? = nil) throws -> FixtureServer {
        try FixtureServer(script: SourceTree.path("Tests/Fixtures/open_meteo_server.py"), environment: clock?.environment ?? [:])
    }

    /// `Tests/Fixtures/directory_server.py`: answers like the iTunes Search API, and serves
    /// web pages that announce the fixture feeds (autodiscovery).
    public static func directory() throws -> FixtureServer {
        try FixtureServer(script: SourceTree.path("Tests/Fixtures/directory_server.py"))
    }

    /// `Tests/Fixtures/gpodder_server.py`: a podcast sync server speaking the gpodder.net
    /// API v2 (`gpodder`) or the Nextcloud gPodder Sync app's (`nextcloud`), user `alice`
    /// with password `s3cret`, with failures a test switches on (`/_control/fault?mode=…`).
    public static func gpodder(flavour: String = "gpodder") throws -> FixtureServer {
        try FixtureServer(script: SourceTree.path("Tests/Fixtures/gpodder_server.py"), arguments: ["--flavour", flavour])
    }

    /// `Tests/Fixtures/feed_server.py`: the feeds in `Tests/Fixtures/feeds`, or in `folder`
    /// (which a test may change between reads), with audio, redirects and failures.
    public static func feeds(serving folder: URL? = nil, on host: TestHost? = nil) throws -> FixtureServer {
        try FixtureServer(script: SourceTree.path("Tests/Fixtures/feed_server.py"), arguments: folder.map { [$0.path] } ?? [], on: host)
    }
}

extension FixtureServer {
    /// Tells the server what to do next: `GET /control?<query>` (the weather fixture's
    /// `fail=N`, `alerts=on`, `hours=now`, …; its docstring lists them).
    public func control(_ query: String) throws {
        _ = try Data(contentsOf: URL(string: baseURL.absoluteString + "/control?" + query)!)
    }
}
