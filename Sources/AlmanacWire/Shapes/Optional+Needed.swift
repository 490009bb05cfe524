/// A field a value's kind needs (a change's, a list step's): the value, or a
/// `DecodingError` naming what lacks it.
extension Optional {
    func needed(_ key: String, by what: @autoclosure () -> String) throws -> Wrapped {
        guard let self else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(what()) has no '\(key)'.")) }
        return self
    }
}
