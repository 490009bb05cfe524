/// The limits a `PrivateBus` runs with, as dbus-daemon's `<limit>` elements. `session`
/// keeps those of `scripts/private-bus.conf.in` (the session bus's: 1 GB messages);
/// `daemonDefaults` are dbus-daemon's built-in ones, which the system bus and many
/// distributions' configurations run with: a client that sends a message over 32 MiB is
/// disconnected.
public struct BusLimits: Sendable, Equatable {
    /// `<limit name="…">value</limit>` pairs, applied after the template's own.
    public var values: [(name: String, value: Int)]

    public init(_ values: [(name: String, value: Int)]) { self.values = values }

    /// The template's limits, unchanged.
    public static let session = BusLimits([])

    /// dbus-daemon's built-in defaults (bus/config-parser.c): 32 MiB a message, 127 MiB
    /// queued in and out per connection.
    public static let daemonDefaults = BusLimits([
        ("max_message_size", 33_554_432),
        ("max_incoming_bytes", 133_169_152),
        ("max_outgoing_bytes", 133_169_152),
    ])

    /// The configuration elements, one a line.
    var elements: String {
        values.map { "  <limit name=\"\($0.name)\">\($0.value)</limit>\n" }.joined()
    }

    public static func == (lhs: BusLimits, rhs: BusLimits) -> Bool {
        lhs.values.map(\.name) == rhs.values.map(\.name) && lhs.values.map(\.value) == rhs.values.map(\.value)
    }
}
