/// A place asked to be removed from the saved ones is not among them: `UnknownLocation`.
public struct LocationNotSaved: NamedError, Sendable, Hashable, CustomStringConvertible {
    public let location: String
    /// The places that are saved.
    public let saved: [String]

    public init(location: String, saved: [String]) {
        self.location = location
        self.saved = saved
    }

    public var message: String {
        "'\(location.prefix(80))' is not a saved location. Saved: \(saved.isEmpty ? "none" : saved.joined(separator: ", "))."
    }

    public var errorName: ClientErrorName { .unknownLocation }

    public var description: String { message }
}
