import AlmanacModels
import DBus

/// What `Sleep` is asked: `{"seconds": <d>}` (1 to 86400) or `{"end": <"episode"|"chapter">}`;
/// the daemon reads it strictly (`PlayerCodec.sleepTimer`).
public struct SleepRequest: WireShaped, Codable, Sendable, Hashable {
    public typealias Wire = SleepRequest
    public var seconds: Double?
    public var end: String?

    /// A timer of `seconds`, or else to the end of the episode or chapter.
    public init(seconds: Double? = nil, end: String? = nil) {
        self.seconds = seconds
        self.end = seconds == nil ? end : nil
    }
}
