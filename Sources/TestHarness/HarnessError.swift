/// Why the harness could not do what a test asked: start a bus, a program, a fixture server
/// or the daemon, or see something happen in time.
public struct HarnessError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
