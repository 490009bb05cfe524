import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Tests read the fixture servers' logs with `String(contentsOf:)` and `Data(contentsOf:)`,
/// which Foundation serves for http URLs only when FoundationNetworking is in the process.
/// Almanac's own code no longer links it (its HTTP client is over libcurl), so the harness
/// does, for the tests alone.
public enum FixtureReading {
    /// The type that makes the linker keep FoundationNetworking.
    public static let loader: URLSession.Type = URLSession.self
}
