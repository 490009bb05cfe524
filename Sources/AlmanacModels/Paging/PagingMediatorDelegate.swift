/// Hears what a `PagingMediator` does: the loading row showing, pages arriving, failures.
public protocol PagingMediatorDelegate<Item>: AnyObject, Sendable {
    associatedtype Item: Sendable
    func mediator(_ mediator: PagingMediator<Item>, did event: PagingEvent<Item>)
}
