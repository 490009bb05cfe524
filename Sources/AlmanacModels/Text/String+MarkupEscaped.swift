extension String {
    /// The text with `&`, `<` and `>` written as entities, so that a reader of XML-like
    /// markup (Pango, a notification server's body markup) shows it as it is.
    public var markupEscaped: String {
        guard contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 16)
        for character in self {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
