import AlmanacModels
import AlmanacWire
public import DBus
public import Logging

/// Almanac steering players, on the bus: `org.almanac.Player1` at `/org/almanac/Almanac1/player`
/// — `Sleep`, `CancelSleep`, `SeekChapter`, and the timer as the property `SleepTimer`,
/// announced with `PropertiesChanged`. Reads the arguments; the steering, and its refusals
/// (`SteeringError`, which names itself), are `PlayerSteering`'s.
public final class PlayerExport: Sendable {
    private let steering: PlayerSteering
    private let connection: Connection
    private let logger: Logger
    /// Which property to announce, if it changed.
    private enum Ask: Sendable {
        case timer, playing
    }

    /// The announcements asked for, to the one task that makes them (`export`): it alone keeps
    /// what the properties said last (no lock), and it reads each value as it announces it, so
    /// the last announcement is the current value whatever order the askers ran in.
    private let asks: (stream: AsyncStream<Ask>, continuation: AsyncStream<Ask>.Continuation) = AsyncStream.makeStream()

    public init(steering: PlayerSteering, connection: Connection, logger: Logger) {
        self.steering = steering
        self.connection = connection
        self.logger = logger
    }

    deinit {
        asks.continuation.finish()
    }

    /// Exports the object and announces the timer's changes from now on.
    public func export() throws {
        steering.whenTimerChanges { [weak self] in self?.announce() }
        steering.whenNowPlayingChanges { [weak self] in self?.announcePlaying() }
        try connection.export([interface()], at: BusContract.playerPath)
        Task { [asks, weak self] in
            var announced: (timer: [String: Value], playing: [String: Value]) = ([:], [:])
            for await ask in asks.stream {
                guard let self else { return }
                switch ask {
                case .timer: self.announceTimer(since: &announced.timer)
                case .playing: self.announcePlaying(since: &announced.playing)
                }
            }
        }
    }

    public func unexport() {
        asks.continuation.finish()
        try? connection.unexport(BusContract.playerPath)
    }

    /// The `SleepTimer` property's entries: `{}` while no timer is set.
    private func timer() throws -> [String: Value] {
        guard let status = steering.sleepTimer else { return [:] }
        return try WireCoding.fields(SleepTimerProperty(status.timer, player: status.owner.rawValue, episode: status.episodeID, pausesAt: status.pausesAt))
    }

    /// The `NowPlaying` property's entries: `{}` while no player has an episode open.
    private static func playing(_ steering: PlayerSteering) throws -> [String: Value] {
        try steering.nowPlaying().map(WireCoding.fields) ?? [:]
    }

    private func announce() {
        asks.continuation.yield(.timer)
    }

    private func announcePlaying() {
        asks.continuation.yield(.playing)
    }

    /// `SleepTimer`, when it differs from what was announced last.
    private func announceTimer(since announced: inout [String: Value]) {
        let now: [String: Value]
        do {
            now = try timer()
        } catch {
            logger.error("could not encode the sleep timer", metadata: ["error": "\(error)"])
            return
        }
        guard announced != now else { return }
        announced = now
        do {
            try connection.emitPropertiesChanged(path: BusContract.playerPath, interface: BusContract.playerInterface,
                                                 values: [BusContract.Player1.sleepTimer.entry(Self.value(now))])
        } catch {
            logger.error("could not announce the sleep timer", metadata: ["error": "\(error)"])
        }
    }

    /// `NowPlaying`, announced after each change of the player (never on a clock: nothing
    /// changes by itself but a chapter beginning, which the steering tells).
    private func announcePlaying(since announced: inout [String: Value]) {
        let now: [String: Value]
        do {
            now = try Self.playing(steering)
        } catch {
            logger.error("could not encode what plays", metadata: ["error": "\(error)"])
            return
        }
        guard announced != now else { return }
        announced = now
        do {
            try connection.emitPropertiesChanged(path: BusContract.playerPath, interface: BusContract.playerInterface,
                                                 values: [BusContract.Player1.nowPlaying.entry(Self.value(now))])
        } catch {
            logger.error("could not announce what plays", metadata: ["error": "\(error)"])
        }
    }

    /// An `a{sv}` as one value, its keys in order.
    private static func value(_ entries: [String: Value]) -> VariantDictionary {
        VariantDictionary(.dictionary(key: .string, value: .variant, entries.sorted { $0.key < $1.key }.map { .init(.string($0.key), .variant($0.value)) }))
    }

    private func interface() throws -> Interface {
        let steering = self.steering
        return try Interface(BusContract.playerInterface.rawValue, methods: [
            Method(BusContract.Player1.sleep, async: { [weak self] _, options in
                let timer = try PlayerCodec.sleepTimer(options, now: steering.now)
                let status = try await steering.sleep(timer)
                self?.announce()
                return try WireCoding.fields(SleepTimerProperty(status.timer, player: status.owner.rawValue, episode: status.episodeID, pausesAt: status.pausesAt))
            }),
            Method(BusContract.Player1.cancelSleep) { [weak self] _, _ in
                let wasSet = steering.cancelSleep()
                self?.announce()
                return wasSet
            },
            Method(BusContract.Player1.seekChapter, async: { _, offset in
                // A range, not `abs(offset)`: the absolute value of Int32.min does not fit, and traps.
                guard offset != 0, (-1_000...1_000).contains(offset) else {
                    throw BusError.invalidArgs("'offset' is how many chapters to move, 1 for the next, -1 for the previous (at most 1000 either way); not \(offset).")
                }
                return try WireCoding.fields(ChapterMark(try await steering.seekChapter(Int(offset))))
            }),
        ], properties: [
            Property(BusContract.Player1.sleepTimer) { [weak self] in Self.value(try self?.timer() ?? [:]) },
            Property(BusContract.Player1.nowPlaying) { Self.value(try Self.playing(steering)) },
        ])
    }
}
