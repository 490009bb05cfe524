/// A coding key made at run time: an `a{sv}` key or an array index, for coding paths. An
/// index's string is made only when asked for (an error's path), not for every item.
struct AnyKey: CodingKey {
    private let string: String
    let intValue: Int?

    var stringValue: String { intValue.map { "\($0)" } ?? string }

    init(_ string: String) {
        self.string = string
        intValue = nil
    }

    init(_ index: Int) {
        string = ""
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}
