/// Where `almanac chapter next|previous` (`Player1.SeekChapter`) takes a player: the rule
/// of players and podcast apps alike.
public enum ChapterSeek {
    /// How far into a chapter "previous" goes back to the start of that same chapter rather
    /// than to the one before (a CD player's rule): 3 seconds.
    public static let restartWithin: Double = 3

    /// The chapter to seek to from `position` seconds, `offset` chapters on (1: next, -1:
    /// previous); `nil` when there is none that way (past the last, or no chapters).
    public static func target(_ chapters: [FeedChapter], from position: Double, offset: Int) -> FeedChapter? {
        let sorted = chapters.sorted { $0.start < $1.start }
        guard !sorted.isEmpty, offset != 0 else { return nil }
        // The chapter playing now: the last that starts at or before the position (the first when before it).
        let current = sorted.lastIndex { $0.start <= position + 0.001 } ?? -1
        var index = current + offset
        if offset < 0, current >= 0, position - sorted[current].start > restartWithin { index += 1 }
        guard sorted.indices.contains(index) else { return offset < 0 && !sorted.isEmpty ? sorted.first : nil }
        return sorted[index]
    }

    /// The chapter playing at `position` seconds, if any.
    public static func current(_ chapters: [FeedChapter], at position: Double) -> FeedChapter? {
        chapters.sorted { $0.start < $1.start }.last { $0.start <= position + 0.001 }
    }
}
