/// An error a client of the daemon may see, naming itself: the D-Bus error name a client
/// matches on (`org.almanac.Error.NotAFeed`, or a standard one such as
/// `org.freedesktop.DBus.Error.InvalidArgs`) and a message a person can act on.
///
/// Adopted where each error is defined, as Hummingbird's `HTTPResponseError` knows its
/// status and zbus's `#[derive(DBusError)]` its name: the daemon's bus layer sends any
/// such error as the call's error reply, in one place (AlmanacBus's `ErrorReplies`), so a
/// handler just throws. An error that does not adopt it reaches a client only as a generic
/// `Failed` that shows nothing of it.
public protocol NamedError: Error {
    /// The name a client sees and matches on.
    var errorName: ClientErrorName { get }
    /// What went wrong and what to do, in words a person can act on: sent as it is, so it
    /// holds nothing a client should not see.
    var message: String { get }
}
