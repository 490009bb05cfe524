import AlmanacCore
import AlmanacModels

/// When a transfer that still moves counts as stalled: fewer than `minimumBytes` in each of
/// `windows` spells of `window` in a row. A server that trickles a byte now and then is
/// never silent long enough for the request timeout, and would hold one of the download
/// slots for days. The daemon's rule: under 1 KiB a minute for 2 minutes.
public struct DownloadStall: Sendable, Hashable {
    public var minimumBytes: UInt64
    public var window: Duration
    public var windows: Int

    public init(minimumBytes: UInt64 = 1024, window: Duration = .seconds(60), windows: Int = 2) {
        self.minimumBytes = max(1, minimumBytes)
        self.window = window
        self.windows = max(1, windows)
    }

    /// Why a transfer from `host` was stopped, in words.
    func reason(host: String) -> String {
        let seconds = Int(window.components.seconds)
        let rate = seconds == 60 ? "a minute" : "every \(seconds) s"
        let spell = seconds == 60 ? "\(windows) minute\(windows == 1 ? "" : "s")" : "\(seconds * windows) s"
        return "\(host) sent less than \(FreeSpace.bytes(minimumBytes)) \(rate) for \(spell): the download was stopped. Try again later."
    }
}
