import TestHarness
import Testing

/// Subscribes to `feedURL` with `almanac` and returns the podcast's id and its episodes' ids
/// by title (every episode, up to 500).
func subscribeListing(_ feedURL: String, bus: PrivateBus) async throws -> (podcast: String, episodes: [String: String]) {
    let subscribed = try await almanac(["podcasts", "subscribe", feedURL], bus: bus)
    try #require(subscribed.status == 0, "\(subscribed.errorOutput)")
    let podcast = String(subscribed.output.split(separator: " ")[0])
    let listed = try await almanac(["episodes", podcast, "--all", "--limit", "500", "--format", "{{id}}|{{title}}"], bus: bus)
    try #require(listed.status == 0, "\(listed.errorOutput)")
    var episodes: [String: String] = [:]
    for line in listed.output.split(separator: "\n") {
        let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
        if parts.count == 2 { episodes[parts[1]] = parts[0] }
    }
    return (podcast, episodes)
}
