public import AlmanacModels
public import DBus

extension ErrorName {
    /// `name` as a D-Bus error name (each is a valid one: `ClientErrorNameTests`).
    public init(_ name: ClientErrorName) {
        self = (try? ErrorName(name.rawValue)) ?? .failed
    }
}

extension BusError {
    /// `error` as the error reply a client sees: its own name and message.
    public init(_ error: any NamedError) {
        self.init(ErrorName(error.errorName), error.message)
    }
}
