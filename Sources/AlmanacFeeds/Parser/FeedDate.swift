import AlmanacModels
/// Dates as feeds write them, to seconds since 1970 UTC, by arithmetic alone (no formatter,
/// no locale). Unparseable text gives nil.
///
/// * RFC 822/2822 and what real feeds make of it: weekday or not, one- or two-digit day,
///   abbreviated or full month names, two- or four-digit year (`24` is 2024, `97` is 1997),
///   seconds or not, zones `GMT`/`UT`/`UTC`/`Z`, the US zones (`EST` … `PDT`), a few others
///   (`BST`, `CET`, `CEST`, `EET`, `EEST`, `JST`, `AEST`, `AEDT`), numeric `±hhmm`,
///   `±hh:mm` and `±hh`; extra spaces and trailing text are ignored; no zone means UTC.
/// * ISO 8601 / RFC 3339: `2024-01-05`, `2024-01-05T10:30`, `…:45`, `…:45.123`, with `Z`,
///   `±hh:mm`, `±hhmm` or `±hh`, or none (UTC); a space may stand for the `T`.
public enum FeedDate {
    /// Seconds since 1970 UTC of a date as feeds (and the gpodder.net API) write it; `nil` when it is none.
    public static func unixTime(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { unixTime($0) }
    }

    static func unixTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var reader = ByteReader(bytes: bytes)
        reader.skip(while: ASCII.isWhitespace)
        if reader.remaining >= 10, (0..<4).allSatisfy({ ASCII.isDigit(reader.peek($0)) }), reader.peek(4) == ASCII.minus {
            return iso8601(&reader)
        }
        return rfc822(&reader)
    }

    private static func iso8601(_ reader: inout ByteReader) -> Int64? {
        guard let year = reader.number(maxDigits: 4), reader.consume(ASCII.minus),
              let month = reader.number(maxDigits: 2), reader.consume(ASCII.minus),
              let day = reader.number(maxDigits: 2) else { return nil }
        var hour = 0, minute = 0, second = 0, offset = 0
        let separator = reader.peek(0)
        if separator == 0x54 || separator == 0x74 || separator == ASCII.space, ASCII.isDigit(reader.peek(1)) {
            reader.advance(1)
            guard let h = reader.number(maxDigits: 2), reader.consume(ASCII.colon), let m = reader.number(maxDigits: 2) else { return nil }
            hour = h
            minute = m
            if reader.consume(ASCII.colon) {
                guard let s = reader.number(maxDigits: 2) else { return nil }
                second = s
                if reader.consume(ASCII.dot) || reader.consume(ASCII.comma) { reader.skip(while: ASCII.isDigit) }
            }
            reader.skip(while: ASCII.isWhitespace)
            let zone = reader.peek(0)
            if zone == 0x5A || zone == 0x7A {
                reader.advance(1)
            } else if zone == ASCII.plus || zone == ASCII.minus {
                guard let parsed = numericOffset(&reader) else { return nil }
                offset = parsed
            }
        }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    private static func rfc822(_ reader: inout ByteReader) -> Int64? {
        var day: Int?, month: Int?, year: Int?
        var hour: Int?, minute = 0, second = 0
        var offset: Int?
        scan: while !reader.isAtEnd, offset == nil {
            let byte = reader.peek(0)
            if ASCII.isLetter(byte) {
                let word = reader.word()
                if let named = monthNumber(word), month == nil {
                    month = named
                } else if hour != nil, let zone = zoneOffset(word) {
                    offset = zone
                    // "GMT+0100": the numbers that follow say more.
                    if reader.peek(0) == ASCII.plus || reader.peek(0) == ASCII.minus, let extra = numericOffset(&reader) {
                        offset = zone + extra
                    }
                } else if hour != nil, day != nil, month != nil, year != nil {
                    break scan // trailing text
                }
            } else if ASCII.isDigit(byte) {
                let start = reader.index
                guard let value = reader.number(maxDigits: 9) else { return nil }
                let digits = reader.index - start
                if reader.peek(0) == ASCII.colon, hour == nil {
                    reader.advance(1)
                    guard let m = reader.number(maxDigits: 2) else { return nil }
                    hour = value
                    minute = m
                    if reader.consume(ASCII.colon) {
                        guard let s = reader.number(maxDigits: 2) else { return nil }
                        second = s
                        if reader.consume(ASCII.dot) { reader.skip(while: ASCII.isDigit) }
                    }
                } else if digits >= 4, year == nil {
                    year = value
                } else if day == nil, digits <= 2 {
                    day = value
                } else if year == nil {
                    year = digits == 2 ? (value < 50 ? 2000 + value : 1900 + value) : (digits == 3 ? 1900 + value : value)
                } else {
                    break scan
                }
            } else if (byte == ASCII.plus || byte == ASCII.minus), hour != nil, ASCII.isDigit(reader.peek(1)) {
                guard let parsed = numericOffset(&reader) else { return nil }
                offset = parsed
            } else {
                reader.advance(1) // spaces, commas, dashes, slashes, dots
            }
        }
        guard let day, let month, let year else { return nil }
        return seconds(year: year, month: month, day: day, hour: hour ?? 0, minute: minute, second: second, offset: offset ?? 0)
    }

    /// `+hhmm`, `-hh:mm`, `+hh` in seconds east of UTC.
    private static func numericOffset(_ reader: inout ByteReader) -> Int? {
        let negative = reader.peek(0) == ASCII.minus
        reader.advance(1)
        let start = reader.index
        guard let value = reader.number(maxDigits: 4) else { return nil }
        var hours = value, minutes = 0
        if reader.index - start > 2 {
            hours = value / 100
            minutes = value % 100
        } else if reader.consume(ASCII.colon) {
            guard let m = reader.number(maxDigits: 2) else { return nil }
            minutes = m
        }
        guard hours <= 23, minutes <= 59 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return negative ? -seconds : seconds
    }

    private static func monthNumber(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        guard word.count >= 3 else { return nil }
        let key = UInt32(ASCII.lowercased(word[0])) << 16 | UInt32(ASCII.lowercased(word[1])) << 8 | UInt32(ASCII.lowercased(word[2]))
        switch key {
        case 0x6A616E: return 1 // jan
        case 0x666562: return 2 // feb
        case 0x6D6172: return 3 // mar
        case 0x617072: return 4 // apr
        case 0x6D6179: return 5 // may
        case 0x6A756E: return 6 // jun
        case 0x6A756C: return 7 // jul
        case 0x617567: return 8 // aug
        case 0x736570: return 9 // sep
        case 0x6F6374: return 10 // oct
        case 0x6E6F76: return 11 // nov
        case 0x646563: return 12 // dec
        default: return nil
        }
    }

    private static func zoneOffset(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        let name = String(decoding: word, as: UTF8.self).uppercased()
        let hours: Int
        switch name {
        case "GMT", "UT", "UTC", "Z", "WET": hours = 0
        case "EST": hours = -5
        case "EDT": hours = -4
        case "CST": hours = -6
        case "CDT": hours = -5
        case "MST": hours = -7
        case "MDT": hours = -6
        case "PST": hours = -8
        case "PDT": hours = -7
        case "BST", "CET", "WEST": hours = 1
        case "CEST", "EET": hours = 2
        case "EEST": hours = 3
        case "JST": hours = 9
        case "AEST": hours = 10
        case "AEDT": hours = 11
        default: return nil
        }
        return hours * 3600
    }

    private static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) -> Int64? {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let days = CalendarDay.daysSinceEpoch(year: year, month: month, day: day)
        return Int64(days) * 86400 + Int64(hour * 3600 + minute * 60 + min(second, 59) - offset)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
