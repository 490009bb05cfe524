import AlmanacWire
import DBus

/// The cases' values through `WireCoding`, as the daemon sends them. An encoding that fails
/// shows as a value no golden file holds, so its case fails naming the error.
extension GoldenCases {
    static func fields<T: WireShaped>(_ value: T) -> [String: Value] {
        do { return try WireCoding.fields(value) } catch { return ["encodingFailed": .string("\(error)")] }
    }

    static func value<T: WireShaped>(_ value: T) -> Value {
        do { return try WireCoding.value(value) } catch { return .string("encoding failed: \(error)") }
    }

    static func list<T: WireShaped>(_ values: [T]) -> Value where T.Wire: ValueTyped {
        do { return try WireCoding.value(values) } catch { return .string("encoding failed: \(error)") }
    }

    /// A view's `Updated` `resync` of `state`, as DocumentObject sends it.
    static func resync(_ state: [String: Value]) -> [String: Value] {
        fields(ViewUpdateMarker.resync(state))
    }

    /// A view's `Updated` standing for a change too large for a message, as DocumentObject sends it.
    static func tooLarge(_ change: [String: Value]) -> [String: Value] {
        fields(ViewUpdateMarker<Value>.tooLarge(was: change["kind"]?.stringValue ?? ""))
    }
}
