/// One property of an object whose properties all come from one value (a job's record, a
/// status): its typed definition and how the value gives it, in one line, from which come
/// both the server's table entry and the `(name, value)` entry that announces it.
///
/// ```swift
/// let fields = [PropertyField(received) { (job: Job) in job.received }, …]
/// Interface(name, properties: fields.map { $0.property { try currentJob() } })
/// connection.emitPropertiesChanged(path: path, interface: name, values: fields.map { $0.entry(job) })
/// ```
public struct PropertyField<Source>: Sendable {
    /// The property's name.
    public let name: MemberName
    /// The `(name, value)` entry of the property as `source` gives it.
    public let entry: @Sendable (Source) -> (String, Value)
    private let make: @Sendable (@escaping @Sendable () throws -> Source) -> Property

    /// The field of a read-only property.
    public init<T>(_ definition: BusProperty<T>, _ value: @escaping @Sendable (Source) -> T) {
        name = definition.name
        entry = { definition.entry(value($0)) }
        make = { source in Property(definition) { value(try source()) } }
    }

    /// The table entry, its getter reading the value from `source` (which may throw, say for
    /// an object that is gone).
    public func property(_ source: @escaping @Sendable () throws -> Source) -> Property { make(source) }
}
