import DBus
import Foundation
import Locking
import Synchronization
import TestHarness

/// A small MPRIS media player on a private bus that changes its properties the way real
/// players do: `Metadata` and `PlaybackStatus` announced with `PropertiesChanged`,
/// `Position` only answered when asked, `Seeked` after a jump.
final class MPRISPlayer: Sendable {
    static let path = ObjectPath("/org/mpris/MediaPlayer2")
    static let player = InterfaceName("org.mpris.MediaPlayer2.Player")

    struct State: Sendable {
        var metadata: [String: Value] = [:]
        var status = "Stopped"
        var position: Int64 = 0
        var rate = 1.0
    }

    let connection: Connection
    let state = Locked(State())
    private let tracks = Atomic<Int>(0)
    private let reads = Atomic<Int>(0)

    /// How often somebody asked for `Position` (directly or through `GetAll`).
    var positionReads: Int { reads.load(ordering: .relaxed) }

    /// - Parameter name: the `org.mpris.MediaPlayer2.*` name to take (`nil`: none, so it is no player).
    init(address: String, name: String? = "org.mpris.MediaPlayer2.testplayer") async throws {
        connection = try await Connection.connect(to: address)
        try connection.export([
            try Interface("org.mpris.MediaPlayer2", properties: [
                Property("Identity", .string) { .string("Test Player") },
                Property("CanQuit", .boolean) { .boolean(false) },
            ]),
            try Interface("org.mpris.MediaPlayer2.Player", methods: [
                Method("Play") { _, _ in }, Method("Pause") { _, _ in },
            ], properties: [
                Property("PlaybackStatus", .string) { [self] in .string(state.withLock { $0.status }) },
                Property("Metadata", .dictionary(key: .string, value: .variant)) { [self] in
                    .dictionary(key: .string, value: .variant, state.withLock { $0.metadata }.sorted { $0.key < $1.key }.map { .init(.string($0.key), .variant($0.value)) })
                },
                Property("Rate", .double) { [self] in .double(state.withLock { $0.rate }) },
                Property("Position", .int64, emitsChange: false) { [self] in
                    reads.add(1, ordering: .relaxed)
                    return .int64(state.withLock { $0.position })
                },
            ]),
        ], at: Self.path)
        if let name { _ = try await connection.requestName(BusName(name), flags: .doNotQueue) }
    }

    /// Waits (as long as the harness's `eventually` does) until somebody asks for `Position` more than `count` times in all;
    /// throws when nobody does.
    func waitForPositionRead(after count: Int) async throws {
        if await eventually(every: .milliseconds(10), { positionReads > count }) { return }
        throw HarnessError(message: "nobody asked the player for its Position (read \(positionReads) times, waited for more than \(count))")
    }

    /// Loads a track (`xesam:url`, `mpris:length` in seconds) and starts playing it at `at` seconds.
    func play(_ url: Value, length: Value? = nil, at seconds: Int64 = 0) throws {
        var metadata: [String: Value] = ["xesam:url": url, "mpris:trackid": .objectPath(try ObjectPath("/org/test/track/\(tracks.add(1, ordering: .relaxed).newValue)"))]
        if let length { metadata["mpris:length"] = length }
        state.withLock { $0 = State(metadata: metadata, status: "Playing", position: seconds * 1_000_000) }
        try announce(["Metadata", "PlaybackStatus"])
    }

    /// Jumps to `seconds` (the player says so with `Seeked`).
    func seek(to seconds: Int64) throws {
        state.withLock { $0.position = seconds * 1_000_000 }
        try connection.emit(path: Self.path, interface: Self.player, signal: MemberName("Seeked"), arguments: seconds * 1_000_000)
    }

    /// Pauses at `seconds`.
    func pause(at seconds: Int64) throws {
        state.withLock { $0.status = "Paused"; $0.position = seconds * 1_000_000 }
        try announce(["PlaybackStatus"])
    }

    /// Plays on from where it paused.
    func resume() throws {
        state.withLock { $0.status = "Playing" }
        try announce(["PlaybackStatus"])
    }

    /// Plays faster or slower (the player says so with `PropertiesChanged`).
    func setRate(_ rate: Double) throws {
        state.withLock { $0.rate = rate }
        try announce(["Rate"])
    }

    /// Sets where it is without telling anyone (as playback moves on).
    func advance(to seconds: Int64) {
        state.withLock { $0.position = seconds * 1_000_000 }
    }

    private func announce(_ names: [String]) throws {
        let current = state.withLock { $0 }
        let values: [(String, Value)] = names.map { name in
            switch name {
            case "Metadata": (name, .dictionary(key: .string, value: .variant, current.metadata.sorted { $0.key < $1.key }.map { .init(.string($0.key), .variant($0.value)) }))
            case "Rate": (name, .double(current.rate))
            default: (name, .string(current.status))
            }
        }
        try connection.emitPropertiesChanged(path: Self.path, interface: Self.player, values: values)
    }
}
