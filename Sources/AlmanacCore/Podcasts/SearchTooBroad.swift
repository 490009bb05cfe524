public import AlmanacModels

/// A search that spent its time budget before it was done (`StateStore.searchBudget`):
/// answered as `org.almanac.Error.SearchTooBroad`, with what to change.
public struct SearchTooBroad: NamedError, Sendable, CustomStringConvertible {
    public let message: String

    public init(budget: Double) {
        message = "The search took more than its \(budget.echoedText) s of work and was stopped. Search for longer or rarer words, with fewer prefixes (word*) and OR."
    }

    public var errorName: ClientErrorName { .searchTooBroad }

    public var description: String { message }
}
