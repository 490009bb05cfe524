/// The title a person sees for an episode whose feed gave it none: never an empty line.
extension ParsedEpisode {
    /// The feed's title; without one, the file name of its audio without the extension (as
    /// gPodder and podcastparser do), else the last part of its link's path, else the first
    /// words of its notes, else "Untitled episode".
    public var displayTitle: String {
        let given = title.trimmed
        if !given.isEmpty { return given }
        if let file = enclosures.first.flatMap({ Self.lastPathPart($0.url) }) {
            let stem = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
            return stem.isEmpty ? file : stem
        }
        if let page = link.flatMap(Self.lastPathPart) { return page }
        let notes = descriptionText.split(whereSeparator: \.isNewline).first.map { $0.trimmed } ?? ""
        if !notes.isEmpty { return notes.count > 80 ? String(notes.prefix(79)) + "…" : notes }
        return "Untitled episode"
    }

    /// "show-12.mp3" of "https://host/a/show-12.mp3?x=1#t", percent-decoded (without control
    /// characters); `nil` when the
    /// path ends without one.
    static func lastPathPart(_ url: String) -> String? {
        var rest = Substring(url)
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            rest = rest[rest.index(colon, offsetBy: 3)...].drop { $0 != "/" }
        }
        guard let part = rest.split(separator: "/").last, !part.isEmpty else { return nil }
        // `%1B` decodes to an escape: a file's name is no place for control characters.
        let decoded = part.percentDecoded.strippingControlCharacters().trimmed
        return decoded.isEmpty ? nil : decoded
    }
}
