/// What a `JSONReader` keeps of a document from elsewhere, enforced while it reads: a
/// document made to cost memory out of proportion to its size (`[0,0,…]`, deep nesting,
/// one huge string) costs at most these, whatever its size. docs/security.md.
public struct JSONLimits: Sendable, Hashable {
    /// Nesting of arrays and objects deeper than this is an error (`tooDeep`).
    public var depth: Int
    /// A string longer than this many bytes (UTF-8) is cut to it; the rest is read past.
    public var stringBytes: Int
    /// Elements of one array, members of one object, kept by `JSONReader.node()`; the
    /// ones after are read past. (The pull readers, `elements` and `members`, see them all.)
    public var items: Int
    /// Values kept by `JSONReader.node()` in all; one more is an error (`tooLarge`).
    public var values: Int

    /// Limits of `depth` (64 unless said), `stringBytes`, `items` and `values`, as each property says.
    public init(depth: Int = 64, stringBytes: Int, items: Int, values: Int) {
        self.depth = depth
        self.stringBytes = stringBytes
        self.items = items
        self.values = values
    }
}
