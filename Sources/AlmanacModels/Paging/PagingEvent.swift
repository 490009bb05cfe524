/// What a `PagingMediator` tells its delegate, in order.
public enum PagingEvent<Item: Sendable>: Sendable {
    /// A load began: the loading row shows (`refresh` true: the list will be replaced).
    case loading(refresh: Bool)
    /// A load ended with these items (replacing the list when `refresh`, appended otherwise).
    case loaded(refresh: Bool, items: [Item], hasMore: Bool)
    /// A load failed; the list is as it was.
    case failed(refresh: Bool, message: String)
}
