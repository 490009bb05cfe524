internal import CDBus

extension BusError {
    /// Runs `body` with a libdbus error slot and turns an error libdbus set there into a
    /// `BusError`; the slot is always freed.
    static func withLibdbusError<T>(code: Code = .failed, _ body: (UnsafeMutablePointer<DBusError>) -> T) throws -> T {
        var slot = DBusError()
        dbus_error_init(&slot)
        defer { dbus_error_free(&slot) }
        let result = body(&slot)
        if dbus_error_is_set(&slot) != 0 {
            let name = slot.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
            let message = slot.message.map { String(cString: $0) } ?? "libdbus failed without saying why."
            throw BusError(code: code, name: (try? ErrorName(name)) ?? .failed, message: message)
        }
        return result
    }
}
