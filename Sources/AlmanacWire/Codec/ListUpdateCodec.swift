public import AlmanacModels
public import DBus

/// A view's list being paged (`View1.LoadMore`, `RefreshList`), as the `Updated` signals its
/// owner hears and back (docs/bus-api.md): `{"kind": "loading", "refresh": b}`, then
/// `{"kind": "page", "refresh": b, "items": aa{sv}, "hasMore": b}` or
/// `{"kind": "loadFailed", "refresh": b, "error": s}`. Each kind is spelled once, here.
public enum ListUpdateCodec {
    enum Kind: String, CaseIterable {
        case loading, page, loadFailed
    }

    /// A paging step as the view's `Updated` carries it.
    public static func encode(_ event: PagingEvent<Value>) -> [String: Value] {
        switch event {
        case .loading(let refresh):
            [ViewUpdateCodec.kind: .string(Kind.loading.rawValue), "refresh": .boolean(refresh)]
        case .loaded(let refresh, let items, let hasMore):
            [ViewUpdateCodec.kind: .string(Kind.page.rawValue), "refresh": .boolean(refresh), "hasMore": .boolean(hasMore),
             "items": .array(.dictionary(key: .string, value: .variant), items)]
        case .failed(let refresh, let message):
            [ViewUpdateCodec.kind: .string(Kind.loadFailed.rawValue), "refresh": .boolean(refresh), "error": .string(message)]
        }
    }

    /// The paging step `data` tells, its items left as they came; `nil` for an `Updated` that
    /// is none (a change, a resync), or one whose fields are missing or of another type.
    public static func decode(_ data: [String: Value]) -> PagingEvent<Value>? {
        guard let kind = data[ViewUpdateCodec.kind]?.stringValue.flatMap(Kind.init(rawValue:)),
              case .boolean(let refresh)? = data["refresh"]?.unwrapped else { return nil }
        switch kind {
        case .loading:
            return .loading(refresh: refresh)
        case .page:
            guard case .array(_, let items)? = data["items"]?.unwrapped, case .boolean(let hasMore)? = data["hasMore"]?.unwrapped else { return nil }
            return .loaded(refresh: refresh, items: items, hasMore: hasMore)
        case .loadFailed:
            return data["error"]?.stringValue.map { .failed(refresh: refresh, message: $0) }
        }
    }
}
