internal import CDBus

/// The four kinds of D-Bus message.
public enum MessageType: Sendable, Hashable, CustomStringConvertible {
    case methodCall, methodReturn, error, signal

    init?(code: Int32) {
        switch code {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: self = .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: self = .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: self = .error
        case DBUS_MESSAGE_TYPE_SIGNAL: self = .signal
        default: return nil
        }
    }

    /// The name used in match rules: `method_call`, `method_return`, `error`, `signal`.
    public var description: String {
        switch self {
        case .methodCall: "method_call"
        case .methodReturn: "method_return"
        case .error: "error"
        case .signal: "signal"
        }
    }
}
