public import AlmanacModels
import FoundationEssentials

/// `almanac forecast --graph`: the hours ahead as a picture within a terminal's width —
/// temperature as a line over a few rows between its lowest and highest value, the chance
/// and the amount of precipitation as bars, and a row marking where each day begins, with
/// its weekday and the hours. When there are more hours than columns, each column stands
/// for several hours: their mean temperature, their highest chance, their total amount. The
/// temperature's labels are the lowest and highest drawn (columns' means, then).
public struct ForecastGraphViewData: Sendable, Hashable {
    /// One hour, metric (the labels are shown in the user's units; the shape is the same).
    struct Hour: Sendable, Hashable {
        let time: Date
        /// °C.
        let temperature: Double
        /// 0…100, `nil` when unknown.
        let chance: Double?
        /// mm.
        let amount: Double
    }

    let hours: [Hour]
    let utcOffset: Int
    let units: ShownUnits

    /// The rows of the temperature line.
    static let temperatureRows = 6
    /// Columns before the chart: a label of eight, a space and the axis.
    static let gutter = 10
    /// The narrowest graph drawn (a narrower terminal gets this many columns anyway).
    public static let minimumWidth = 80

    /// - Parameters:
    ///   - hours: the hours to draw, one after the other (those without a temperature, or with
    ///     one no place has, are left out).
    ///   - utcOffset: the place's offset from UTC, seconds: days begin at its midnight.
    public init(hours: [HourlyForecast], units: ShownUnits, utcOffset: Int) {
        // A temperature no place has would stretch the scale past what a Double holds.
        self.hours = hours.filter { WeatherReading.believableTemperatures.contains($0.temperature) }.map { hour in
            Hour(time: hour.time, temperature: hour.temperature,
                 chance: hour.precipitationProbability.isFinite ? min(max(hour.precipitationProbability, 0), 100) : nil,
                 amount: hour.precipitation.isFinite ? min(max(hour.precipitation, 0), 1_000) : 0)
        }
        self.utcOffset = utcOffset
        self.units = units
    }

    /// How many hours one column stands for, to fit `width`.
    public func hoursPerColumn(width: Int) -> Int {
        let columns = max(width, Self.minimumWidth) - Self.gutter
        return max(1, (hours.count + columns - 1) / columns)
    }

    /// One column: a run of hours.
    struct Column {
        let start: Date
        let hours: ArraySlice<Hour>
        var temperature: Double { hours.map(\.temperature).reduce(0, +) / Double(hours.count) }
        var chance: Double? { hours.compactMap(\.chance).max() }
        var amount: Double { hours.map(\.amount).reduce(0, +) }
    }

    func columns(width: Int) -> [Column] {
        let step = hoursPerColumn(width: width)
        return stride(from: 0, to: hours.count, by: step).map { start in
            Column(start: hours[start].time, hours: hours[start..<min(start + step, hours.count)])
        }
    }

    /// The graph's lines, none wider than `max(width, 80)` columns; `ascii`: only ASCII
    /// characters (for `TERM=dumb`: "9.0C"). No lines when there are no hours.
    public func lines(width: Int, ascii: Bool) -> [String] {
        let columns = columns(width: width)
        guard !columns.isEmpty else { return [] }
        let glyphs = ascii ? Glyphs.ascii : Glyphs.unicode
        var lines = temperatureLines(columns, glyphs)
        let chances = columns.map { $0.chance ?? 0 }
        lines.append(label("chance") + String(glyphs.tick) + bars(chances.map { $0 / 100 }, glyphs))
        let amounts = columns.map(\.amount)
        let wettest = amounts.max() ?? 0
        lines.append(label(WeatherNowViewData.length(wettest, units)) + String(glyphs.tick) + bars(amounts.map { wettest > 0 ? $0 / wettest : 0 }, glyphs))
        lines.append(contentsOf: dayLines(columns, glyphs))
        return lines.map { trimmedRight($0) }
    }

    /// The characters a graph is drawn with.
    struct Glyphs {
        /// Eighths of a cell, from one eighth to full.
        let levels: [Character]
        let tick: Character
        let axis: Character
        let corner: Character
        let rule: Character
        let dayStart: Character
        /// Labels lose their "°" too.
        let ascii: Bool

        static let unicode = Glyphs(levels: Array("▁▂▃▄▅▆▇█"), tick: "┤", axis: "│", corner: "└", rule: "─", dayStart: "┬", ascii: false)
        static let ascii = Glyphs(levels: Array("..--==##"), tick: "+", axis: "|", corner: "+", rule: "-", dayStart: "+", ascii: true)
    }

    /// The temperature as a line across `temperatureRows` rows: in each column, the cell at
    /// its height, filled to the eighth; the highest value labels the top row, the lowest the bottom.
    private func temperatureLines(_ columns: [Column], _ glyphs: Glyphs) -> [String] {
        let rows = Self.temperatureRows
        let values = columns.map(\.temperature)
        let (low, high) = (values.min() ?? 0, values.max() ?? 0)
        let span = high - low
        // Eighths above the bottom of the chart, 0 … rows × 8 − 1.
        let heights = values.map { value in span > 0 ? min(rows * 8 - 1, Int(((value - low) / span * Double(rows * 8 - 1)).rounded())) : rows * 4 }
        return (0..<rows).reversed().map { row in
            let name = row == rows - 1 ? WeatherNowViewData.temperature(high, units)
                : row == 0 ? WeatherNowViewData.temperature(low, units) : ""
            let cells = heights.map { height -> Character in height / 8 == row ? glyphs.levels[height % 8] : " " }
            return label(name, ascii: glyphs.ascii) + String(name.isEmpty ? glyphs.axis : glyphs.tick) + String(cells)
        }
    }

    /// A bar per column for `fractions` (0…1): nothing for 0, else one to eight eighths.
    private func bars(_ fractions: [Double], _ glyphs: Glyphs) -> String {
        String(fractions.map { fraction -> Character in
            guard fraction > 0 else { return " " }
            return glyphs.levels[min(7, max(0, Int((fraction * 8).rounded(.up)) - 1))]
        })
    }

    /// The axis with a mark where each day begins, the days' names after their marks (as
    /// much as fits before the next: "Mon 23", "Mon" or nothing), and (at one or two hours a
    /// column) the hours 06, 12 and 18.
    private func dayLines(_ columns: [Column], _ glyphs: Glyphs) -> [String] {
        let starts = columns.indices.filter { index in
            index > 0 && day(of: columns[index].hours.last!.time) != day(of: columns[index - 1].hours.last!.time)
        }
        var axis = Array(repeating: glyphs.rule, count: columns.count)
        for index in starts { axis[index] = glyphs.dayStart }
        // Each day's name from its mark (the first day's from the first column) to the next mark.
        var names = Array(repeating: Character(" "), count: columns.count)
        let firsts = [0] + starts
        for (position, index) in firsts.enumerated() {
            let room = (position + 1 < firsts.count ? firsts[position + 1] : columns.count) - index - 1
            let dayOfColumn = day(of: columns[index].hours.last!.time)
            let full = shortDay(dayOfColumn)
            let text = [full, String(full.prefix(3))].first { $0.count <= room } ?? ""
            for (offset, character) in text.enumerated() { names[index + offset] = character }
        }
        var lines = [String(repeating: " ", count: Self.gutter - 1) + String(glyphs.corner) + String(axis),
                     String(repeating: " ", count: Self.gutter) + String(names)]
        // The hours 06, 12 and 18 under the columns that hold them, when a column is at most two hours.
        guard columns.allSatisfy({ $0.hours.count <= 2 }) else { return lines }
        var marks = Array(repeating: Character(" "), count: columns.count)
        for (index, column) in columns.enumerated() where index + 2 <= columns.count && (index == 0 || marks[index - 1] == " ") {
            guard let mark = column.hours.lazy.map({ localClock($0.time, utcOffset: utcOffset) }).first(where: { ["06:00", "12:00", "18:00"].contains($0) })
            else { continue }
            marks[index] = mark.first!
            marks[index + 1] = mark.dropFirst().first!
        }
        lines.append(String(repeating: " ", count: Self.gutter) + String(marks))
        return lines
    }

    /// The place's calendar day of `date`.
    private func day(of date: Date) -> String {
        CalendarDay.at(date, utcOffset: utcOffset)
    }

    /// `text` right-aligned in the label's eight columns (cut when longer), and a space.
    private func label(_ text: String, ascii: Bool = false) -> String {
        let width = Self.gutter - 2
        let cut = String((ascii ? text.replacing("°", with: "") : text).prefix(width))
        return String(repeating: " ", count: width - cut.count) + cut + " "
    }

    private func trimmedRight(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
