extension Decoder {
    /// `F` read from this decoder's entries, made into what `make` makes of it: a change
    /// kind's fields, read after its `kind` from the same entries, into the change.
    func read<F: Decodable, T>(_ type: F.Type, as make: (F) throws -> T) throws -> T {
        try make(F(from: self))
    }
}
