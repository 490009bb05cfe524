public import AlmanacModels

/// The disk refused a write (or a read); the description says what and why. A client sees
/// it as `Failed`, told that nothing was changed: a write that fails is rolled back whole.
public struct StorageError: NamedError, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
    public var errorName: ClientErrorName { .failed }
    public var message: String { "\(description) Nothing was changed." }
}
