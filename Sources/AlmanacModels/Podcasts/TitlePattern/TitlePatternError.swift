/// Why a title pattern is not taken, in words that follow the pattern itself
/// ("'include' \"(a)\\1\" uses a reference back to a group …"): `TitlePattern.refusal` says it.
struct TitlePatternError: Error, Sendable {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    /// The pattern is not written as a regular expression is.
    static func syntax(_ what: String) -> TitlePatternError {
        TitlePatternError("is not a regular expression: \(what)")
    }

    /// The pattern asks for something that no matcher does without going back over the
    /// title (so in time that can grow without bound with it).
    static func unbounded(_ what: String) -> TitlePatternError {
        TitlePatternError("uses \(what), which cannot be matched without going back over the title (and so in time that grows without bound)")
    }

    /// The pattern asks for something this matcher does not read.
    static func unsupported(_ what: String, instead: String) -> TitlePatternError {
        TitlePatternError("uses \(what), which title patterns do not take; \(instead)")
    }
}
