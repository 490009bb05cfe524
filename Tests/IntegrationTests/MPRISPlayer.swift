import DBus
import Foundation
import Locking
import Synchronization
import TestHarness

/// A small MPRIS media player on a private bus that changes its properties the way real
/// players do: `Metadata` and `PlaybackStatus` announced with `PropertiesChanged`,
/// `Position` only answered when asked, `Seeked` after a jump. Like a real player on its one
/// main loop, it changes only between the calls it answers, so no `GetAll` mixes two moments.
final class MPRISPlayer: Sendable {
    static let path = ObjectPath("/org/mpris/MediaPlayer2")
    static let player = InterfaceName("org.mpris.MediaPlayer2.Player")
    /// The test's own interface, through which it changes the player on the player's thread.
    static let control = InterfaceName("org.almanac.Test.PlayerControl")

    struct State: Sendable {
        var metadata: [String: Value] = [:]
        var status = "Stopped"
        var position: Int64 = 0
        var rate = 1.0
        /// Where to jump (saying so with `Seeked`) the next time `Position` is asked, before answering.
        var seekWhenAsked: Int64?
    }

    let connection: Connection
    private let state = Locked(State())
    private let tracks = Atomic<Int>(0)
    private let reads = Atomic<Int>(0)
    private let pauses = Atomic<Int>(0)
    /// Changes waiting for the player's thread (`change`), in order.
    private let changes = Locked<[@Sendable () throws -> Void]>([])

    /// How often somebody called `Pause`.
    var pauseCalls: Int { pauses.load(ordering: .relaxed) }

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
                Method("Play") { _, _ in }, Method("Pause") { [self] _, _ in pauses.add(1, ordering: .relaxed) },
            ], properties: [
                Property("PlaybackStatus", .string) { [self] in .string(state.withLock { $0.status }) },
                Property("Metadata", .dictionary(key: .string, value: .variant)) { [self] in
                    .dictionary(key: .string, value: .variant, state.withLock { $0.metadata }.sorted { $0.key < $1.key }.map { .init(.string($0.key), .variant($0.value)) })
                },
                Property("Rate", .double) { [self] in .double(state.withLock { $0.rate }) },
                Property("Position", .int64, emitsChange: false) { [self] in
                    reads.add(1, ordering: .relaxed)
                    let jump = state.withLock { state -> Int64? in
                        defer { state.seekWhenAsked = nil }
                        if let seconds = state.seekWhenAsked { state.position = seconds * 1_000_000 }
                        return state.seekWhenAsked
                    }
                    // Sent before the answer: whoever asked hears of the seek before the answer comes.
                    if let jump { try connection.emit(path: Self.path, interface: Self.player, signal: MemberName("Seeked"), arguments: jump * 1_000_000) }
                    return .int64(state.withLock { $0.position })
                },
            ]),
            // Runs on the connection's thread, between the calls it answers (`GetAll` among them).
            try Interface(Self.control.rawValue, methods: [
                Method("Apply") { [self] _, _ in
                    for change in changes.withLock({ changes in defer { changes = [] }; return changes }) { try change() }
                },
            ]),
        ], at: Self.path)
        if let name { try await take(name) }
    }

    /// Takes an `org.mpris.MediaPlayer2.*` name: from then on it is a player.
    func take(_ name: String = "org.mpris.MediaPlayer2.testplayer") async throws {
        _ = try await connection.requestName(BusName(name), flags: .doNotQueue)
    }

    /// The next time somebody asks for `Position`, jumps to `seconds` and says so with
    /// `Seeked` before it answers (with the new position).
    func seekWhenAsked(to seconds: Int64) async throws {
        try await change(announcing: []) { $0.seekWhenAsked = seconds }
    }

    /// Waits (as long as the harness's `eventually` does) until somebody asks for `Position` more than `count` times in all;
    /// throws when nobody does.
    func waitForPositionRead(after count: Int) async throws {
        if await eventually(every: .milliseconds(10), { positionReads > count }) { return }
        throw HarnessError(message: "nobody asked the player for its Position (read \(positionReads) times, waited for more than \(count))")
    }

    /// Loads a track (`xesam:url`, `mpris:length` in seconds) and starts playing it at `at` seconds.
    func play(_ url: Value, length: Value? = nil, at seconds: Int64 = 0) async throws {
        var metadata: [String: Value] = ["xesam:url": url, "mpris:trackid": .objectPath(try ObjectPath("/org/test/track/\(tracks.add(1, ordering: .relaxed).newValue)"))]
        if let length { metadata["mpris:length"] = length }
        let loaded = metadata
        try await change(announcing: ["Metadata", "PlaybackStatus"]) { $0 = State(metadata: loaded, status: "Playing", position: seconds * 1_000_000) }
    }

    /// Jumps to `seconds` (the player says so with `Seeked`).
    func seek(to seconds: Int64) async throws {
        try await change(announcing: [], seeked: true) { $0.position = seconds * 1_000_000 }
    }

    /// Pauses at `seconds`.
    func pause(at seconds: Int64) async throws {
        try await change(announcing: ["PlaybackStatus"]) { $0.status = "Paused"; $0.position = seconds * 1_000_000 }
    }

    /// Plays on from where it paused.
    func resume() async throws {
        try await change(announcing: ["PlaybackStatus"]) { $0.status = "Playing" }
    }

    /// Plays faster or slower (the player says so with `PropertiesChanged`).
    func setRate(_ rate: Double) async throws {
        try await change(announcing: ["Rate"]) { $0.rate = rate }
    }

    /// Sets where it is without telling anyone (as playback moves on).
    func advance(to seconds: Int64) async throws {
        try await change(announcing: []) { $0.position = seconds * 1_000_000 }
    }

    /// Pauses at `seconds` and at once loads the next track and plays it, both on the player's
    /// thread before it answers anything else: whoever asks about the pause hears of the next
    /// track (as of a player that moves on by itself, or a user quick on "next").
    func pause(at seconds: Int64, thenPlay url: Value, length: Value? = nil, at start: Int64 = 0) async throws {
        enqueue(announcing: ["PlaybackStatus"]) { $0.status = "Paused"; $0.position = seconds * 1_000_000 }
        try await play(url, length: length, at: start)
    }

    /// Makes a change on the player's own connection thread, where it answers `GetAll`, as
    /// a real player changes and answers on its one main loop: an answer is all from before
    /// the change or all from after, never the old track with the new track's position.
    /// Returns once the change (and any queued before it) is made and announced.
    private func change(announcing names: [String], seeked: Bool = false, _ body: @escaping @Sendable (inout State) -> Void) async throws {
        enqueue(announcing: names, seeked: seeked, body)
        guard let me = connection.uniqueName else { throw HarnessError(message: "the player has no name on the bus") }
        _ = try await connection.call(me, path: Self.path, interface: Self.control, method: MemberName("Apply")) { _ in }
    }

    /// Queues a change for the next `Apply`.
    private func enqueue(announcing names: [String], seeked: Bool = false, _ body: @escaping @Sendable (inout State) -> Void) {
        changes.withLock { $0.append { [self] in
            state.withLock { body(&$0) }
            try announce(names)
            if seeked {
                try connection.emit(path: Self.path, interface: Self.player, signal: MemberName("Seeked"), arguments: state.withLock { $0.position })
            }
        } }
    }

    private func announce(_ names: [String]) throws {
        guard !names.isEmpty else { return }
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
