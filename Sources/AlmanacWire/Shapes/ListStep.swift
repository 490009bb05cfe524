public import AlmanacModels
public import DBus

/// A view's list being paged (`View1.LoadMore`, `RefreshList`), as the `Updated` signals its
/// owner hears (docs/bus-api.md): `{"kind": "loading", "refresh": b}`, then
/// `{"kind": "page", "refresh": b, "items": aa{sv}, "hasMore": b}` or
/// `{"kind": "loadFailed", "refresh": b, "error": s}`. Its items are left as they came.
public struct ListStep: Codable {
    enum Kind: String, Codable {
        case loading, page, loadFailed
    }

    var kind: Kind
    var refresh: Bool
    /// The page's `aa{sv}` as it travels.
    var items: Value?
    var hasMore: Bool?
    var error: String?
}

extension PagingEvent: WireShaped where Item == Value {
    public typealias Wire = ListStep

    public var wire: ListStep {
        switch self {
        case .loading(let refresh): ListStep(kind: .loading, refresh: refresh)
        case .loaded(let refresh, let items, let hasMore):
            ListStep(kind: .page, refresh: refresh, items: .array(.dictionary(key: .string, value: .variant), items), hasMore: hasMore)
        case .failed(let refresh, let message): ListStep(kind: .loadFailed, refresh: refresh, error: message)
        }
    }

    /// The step `wire` tells; `DecodingError` for a field its kind needs missing, or items
    /// that are no list.
    public init(wire: ListStep) throws {
        let what = "A list step of kind \(wire.kind.rawValue)"
        switch wire.kind {
        case .loading: self = .loading(refresh: wire.refresh)
        case .page:
            guard case .array(_, let items) = try wire.items.needed("items", by: what) else {
                throw DecodingError.typeMismatch([Value].self, .init(codingPath: [], debugDescription: "\(what)'s items are no list."))
            }
            self = .loaded(refresh: wire.refresh, items: items, hasMore: try wire.hasMore.needed("hasMore", by: what))
        case .loadFailed: self = .failed(refresh: wire.refresh, message: try wire.error.needed("error", by: what))
        }
    }
}
