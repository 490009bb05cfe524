/// A POSIX TZ rule, as a TZif file's footer gives it for the times after its last transition:
/// "CET-1CEST,M3.5.0,M10.5.0/3" (standard time one hour east of UTC, summer time from the last
/// Sunday of March at 02:00 to the last Sunday of October at 03:00), "<+0330>-3:30" (one
/// offset), "EST5EDT,M3.2.0,M11.1.0". Offsets are written west of UTC (the sign reversed);
/// dates as `Mm.w.d` (month, week 1–5 with 5 the last, weekday 0 Sunday), `Jn` (day 1–365,
/// never counting 29 February) or `n` (day 0–365); times from −167 to 167 hours (RFC 8536).
struct PosixTimeZoneRule: Sendable, Hashable {
    /// Seconds east of UTC in standard time, and in daylight-saving time.
    let standardOffset: Int
    let daylightOffset: Int
    /// When daylight-saving time begins and ends each year (local time, the standard one for
    /// the start and the daylight one for the end); `nil`: no daylight-saving time.
    let start: Moment?
    let end: Moment?

    enum Day: Sendable, Hashable {
        case month(month: Int, week: Int, weekday: Int)
        case julianNoLeap(Int)
        case zeroBased(Int)
    }

    struct Moment: Sendable, Hashable {
        let day: Day
        /// Seconds after that day's midnight.
        let time: Int
    }

    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        standardOffset = -standard
        guard !scanner.atEnd else {
            (daylightOffset, start, end) = (standardOffset, nil, nil)
            return
        }
        guard scanner.name() else { return nil }
        daylightOffset = scanner.peek == UInt8(ascii: ",") || scanner.atEnd ? standardOffset + 3600 : scanner.offset().map { -$0 } ?? .min
        guard daylightOffset != .min, scanner.skip(","), let start = scanner.moment(), scanner.skip(","), let end = scanner.moment(), scanner.atEnd else {
            return nil
        }
        (self.start, self.end) = (start, end)
    }

    /// The offset from UTC at `time` (Unix seconds).
    func utcOffset(at time: Int64) -> Int {
        guard let start, let end else { return standardOffset }
        let local = time + Int64(standardOffset)
        let year = CalendarDay.year(ofDay: Int(local / 86_400 - (local < 0 && local % 86_400 != 0 ? 1 : 0)))
        let begins = Int64(Self.days(start.day, year: year)) * 86_400 + Int64(start.time) - Int64(standardOffset)
        let ends = Int64(Self.days(end.day, year: year)) * 86_400 + Int64(end.time) - Int64(daylightOffset)
        let daylight = begins < ends ? (begins <= time && time < ends) : !(ends <= time && time < begins)
        return daylight ? daylightOffset : standardOffset
    }

    /// Days since 1970-01-01 of `day` in `year`.
    static func days(_ day: Day, year: Int) -> Int {
        let january = CalendarDay.daysSinceEpoch(year: year, month: 1, day: 1)
        switch day {
        case .julianNoLeap(let n):
            return january + n - 1 + (CalendarDay.isLeap(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return january + n
        case .month(let month, let week, let weekday):
            let first = CalendarDay.daysSinceEpoch(year: year, month: month, day: 1)
            // 1970-01-01 was a Thursday (4).
            let firstWeekday = ((first + 4) % 7 + 7) % 7
            var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let next = month == 12 ? CalendarDay.daysSinceEpoch(year: year + 1, month: 1, day: 1) : CalendarDay.daysSinceEpoch(year: year, month: month + 1, day: 1)
            while day >= next { day -= 7 }
            return day
        }
    }

    /// Reads a rule's parts in order.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var atEnd: Bool { position >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[position] }

        mutating func skip(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue, peek == ascii else { return false }
            position += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or anything but `>` between `<` and `>`.
        mutating func name() -> Bool {
            if skip("<") {
                let begin = position
                while let byte = peek, byte != UInt8(ascii: ">") { position += 1 }
                return position - begin >= 1 && skip(">")
            }
            let begin = position
            while let byte = peek, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
                position += 1
            }
            return position - begin >= 3
        }

        /// `[+-]hh[:mm[:ss]]` as seconds (hours up to 167).
        mutating func offset() -> Int? {
            let sign = skip("-") ? -1 : (skip("+") ? 1 : 1)
            guard let hours = number(upTo: 167) else { return nil }
            var seconds = hours * 3600
            if skip(":") {
                guard let minutes = number(upTo: 59) else { return nil }
                seconds += minutes * 60
                if skip(":") {
                    guard let secs = number(upTo: 59) else { return nil }
                    seconds += secs
                }
            }
            return sign * seconds
        }

        /// A date, and `/time` after it (02:00 when none).
        mutating func moment() -> Moment? {
            let day: Day
            if skip("M") {
                guard let month = number(upTo: 12), month >= 1, skip("."), let week = number(upTo: 5), week >= 1, skip("."),
                      let weekday = number(upTo: 6) else { return nil }
                day = .month(month: month, week: week, weekday: weekday)
            } else if skip("J") {
                guard let n = number(upTo: 365), n >= 1 else { return nil }
                day = .julianNoLeap(n)
            } else {
                guard let n = number(upTo: 365) else { return nil }
                day = .zeroBased(n)
            }
            guard skip("/") else { return Moment(day: day, time: 7200) }
            guard let time = offset() else { return nil }
            return Moment(day: day, time: time)
        }

        /// Digits as a number no larger than `limit`.
        mutating func number(upTo limit: Int) -> Int? {
            var value = 0
            let begin = position
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard value <= limit else { return nil }
                position += 1
            }
            return position > begin ? value : nil
        }
    }
}
