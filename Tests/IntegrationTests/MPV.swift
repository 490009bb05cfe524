import DBus
import Foundation
import TestHarness

/// A real mpv, headless (`--no-video --ao=null`), with mpv-mpris on a private bus: the player
/// Almanac steers in the tests. Read and told through our own D-Bus client.
final class MPV: Sendable {
    static let plugin = "/usr/lib/mpv-mpris/mpris.so"
    static let name = BusName("org.mpris.MediaPlayer2.mpv")
    static let path = ObjectPath("/org/mpris/MediaPlayer2")
    static let player = InterfaceName("org.mpris.MediaPlayer2.Player")

    /// Whether mpv and mpv-mpris are installed (`make test` installs them: scripts/install-deps.sh).
    static var isInstalled: Bool {
        (try? PrivateBus.find("mpv")) != nil && FileManager.default.fileExists(atPath: plugin)
    }

    private let process: Tool.Background
    let connection: Connection

    /// Starts mpv playing `first` (a URL or path), and waits until it is on the bus. With
    /// `idle`, it stays when the file ends; without, it quits then, as `mpv URL` does for a user.
    init(bus: PrivateBus, playing first: String, idle: Bool = true) async throws {
        process = try Tool.Background("mpv", ["--no-config", "--no-video", "--ao=null"] + (idle ? ["--idle"] : []) + ["--no-terminal", "--script=\(Self.plugin)", first],
                                      environment: bus.environment)
        connection = try await Connection.connect(to: bus.address)
        let connection = self.connection
        guard await eventually(every: .milliseconds(50), {
            (try? await connection.nameOwner(of: Self.name)) != nil
        }) else { throw HarnessError(message: "mpv did not take \(Self.name) on the bus (is mpv-mpris installed?)") }
    }

    /// A property of `org.mpris.MediaPlayer2.Player`.
    func property(_ name: String) async throws -> Value {
        let reply = try await connection.call(Self.name, path: Self.path, interface: .properties, method: "Get",
                                              arguments: Self.player.rawValue, name)
        let (value) = try reply.arguments(Value.self)
        return value.unwrapped
    }

    var status: String { get async throws { try await property("PlaybackStatus").stringValue ?? "?" } }
    /// Seconds into the track.
    var position: Double { get async throws { Double(try await property("Position").integerValue ?? -1_000_000) / 1e6 } }
    var url: String { get async throws { try await property("Metadata").stringKeyedEntries?["xesam:url"]?.stringValue ?? "" } }

    /// Its track's URL and id and where it is in it, from one answer (`GetAll`).
    var track: (url: String, trackID: String, position: Double) {
        get async throws {
            let reply = try await connection.call(Self.name, path: Self.path, interface: .properties, method: "GetAll", arguments: Self.player.rawValue)
            let properties = try reply.arguments([String: Value].self)
            let metadata = properties["Metadata"]?.stringKeyedEntries
            return (metadata?["xesam:url"]?.stringValue ?? "", metadata?["mpris:trackid"]?.unwrapped.stringValue ?? "/",
                    Double(properties["Position"]?.unwrapped.integerValue ?? -1_000_000) / 1e6)
        }
    }

    /// MPRIS `SetPosition` to `seconds` of the track `trackID`, once.
    func seek(track trackID: String, to seconds: Double) async throws {
        _ = try await connection.call(Self.name, path: Self.path, interface: Self.player, method: "SetPosition",
                                      arguments: try ObjectPath(trackID), Int64(seconds * 1e6))
    }

    /// Whether mpv is still on the bus (it quits at the end of its file unless `idle`).
    var isRunning: Bool {
        get async { (try? await connection.nameOwner(of: Self.name)) != nil }
    }

    /// Whether it plays `url` (`PlaybackStatus` `Playing`).
    func isPlaying(_ url: String) async throws -> Bool {
        let (status, playing) = (try await status, try await self.url)
        return status == "Playing" && playing == url
    }

    /// Tells mpv (MPRIS) to open `uri` in place of what it plays.
    func open(_ uri: String) async throws {
        _ = try await connection.call(Self.name, path: Self.path, interface: Self.player, method: "OpenUri", arguments: uri)
    }

    /// MPRIS `SetPosition` to `seconds` of the track playing, told again until mpv is there
    /// (mpv-mpris ignores it, silently, while mpv is still opening the file).
    func setPosition(_ seconds: Double) async throws {
        let moved = try await eventually(every: .milliseconds(200)) {
            let track = try await property("Metadata").stringKeyedEntries?["mpris:trackid"]?.unwrapped.stringValue ?? "/"
            _ = try await connection.call(Self.name, path: Self.path, interface: Self.player, method: "SetPosition",
                                          arguments: try ObjectPath(track), Int64(seconds * 1e6))
            return abs(try await position - seconds) < 2
        }
        if !moved { throw HarnessError(message: "mpv did not move to \(seconds) s") }
    }

    func pause() async throws {
        _ = try await connection.call(Self.name, path: Self.path, interface: Self.player, method: "Pause") { _ in }
    }

    /// Waits until `condition` holds of mpv (as long as the harness's `eventually` does); throws saying what was last seen.
    func waitUntil(_ what: String, _ condition: @escaping @Sendable (MPV) async throws -> Bool) async throws {
        if await eventually(every: .milliseconds(50), { (try? await condition(self)) == true }) { return }
        throw HarnessError(message: "mpv: \(what) did not happen (status \((try? await status) ?? "?"), at \((try? await position) ?? -1) s, playing \((try? await url) ?? "?"))")
    }

    func stop() async {
        await connection.close()
        process.stop()
    }
}

/// A WAV file of silence, 8 kHz mono 8-bit: `seconds` long in `seconds` × 8 KB.
enum SilentWAV {
    static func write(seconds: Int, to url: URL) throws {
        let samples = 8_000 * seconds
        var data = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(UInt32(36 + samples))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(8_000)); append(UInt32(8_000)); append(UInt16(1)); append(UInt16(8))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(samples))
        data.append(Data(repeating: 0x80, count: samples))
        try data.write(to: url)
    }
}
