public import Foundation

/// The checkout the tests were built from, found from this file's path: where the shared
/// bus configuration, the fixtures and the shipped unit files are.
public enum SourceTree {
    /// The repository's top folder.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Sources/TestHarness
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()

    /// The full path of `relative`, a path below the top folder.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }
}
