/// What a `PagingMediator` pages through: any list that can hand out a page after a cursor.
public protocol PagingDataSource<Item>: AnyObject, Sendable {
    associatedtype Item: Sendable
    /// The page after `cursor` (`nil`: the first page), at most `limit` items.
    func loadPage(after cursor: String?, limit: Int) async throws -> Page<Item>
}
