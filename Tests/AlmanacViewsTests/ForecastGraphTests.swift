import AlmanacModels
import AlmanacViews
import Foundation
import TestHarness
import Testing

/// `ForecastGraphViewData` from fixed hours, line for line: Unicode and ASCII, at 80 and 120
/// columns, an hour a column and several; no line wider than the width.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ForecastGraphTests {
    /// 14:00 on Monday 23 November 2026 at UTC+1.
    static let start = Date(timeIntervalSince1970: Double(CalendarDay.daysSinceEpoch(year: 2026, month: 11, day: 23)) * 86_400 + 13 * 3600)

    /// `count` hours from `start`: a daily wave between 1 and 9 °C (warmest at 15:00), a chance
    /// that climbs through each afternoon, and rain (up to 1.2 mm) on the second afternoon.
    static func hours(_ count: Int) -> [HourlyForecast] {
        (0..<count).map { index in
            let localHour = (14 + index) % 24
            let temperature = ((5 - 4 * cos(Double(localHour - 3) / 24 * 2 * .pi)) * 10).rounded() / 10
            let chance = Double((localHour * 5) % 100)
            let rain = (24...30).contains(index) ? Double(index - 23) * 0.2 : 0
            return HourlyForecast(time: start.addingTimeInterval(Double(index) * 3600), temperature: temperature,
                                  precipitationProbability: chance, precipitation: rain, weatherCode: rain > 0 ? 61 : 3, windSpeed: 10, isDay: true)
        }
    }

    static func graph(_ count: Int, units: ShownUnits = .metric) -> ForecastGraphViewData {
        ForecastGraphViewData(hours: hours(count), units: units, utcOffset: 3600)
    }

    static func expectFits(_ lines: [String], _ width: Int) {
        for line in lines { #expect(line.count <= width, "\(line.count) columns: \(line)") }
    }

    @Test func anHourAColumnInUnicodeAt80Columns() {
        let lines = Self.graph(48).lines(width: 80, ascii: false)
        #expect(lines.joined(separator: "\n") == """
           9.0°C ┤▇█▇▅▁                 ▁▅▇█▇▅▁                 ▁▅
                 │     ▄               ▄       ▄               ▄
                 │      ▆▁           ▁▆         ▆▁           ▁▆
                 │        ▃         ▃             ▃         ▃
                 │         ▅       ▅               ▅       ▅
           1.0°C ┤          █▄▂▁▂▄█                 █▄▂▁▂▄█
          chance ┤▆▆▇▇██ ▁▁▂ ▁▁▂▂▂▃▃▄▄▄▅▅▆▆▆▇▇██ ▁▁▂ ▁▁▂▂▂▃▃▄▄▄▅▅▆
          1.4 mm ┤                        ▂▃▄▅▆▇█
                 └──────────┬───────────────────────┬─────────────
                  Mon 23    Tue 24                  Wed 25
                      18          06    12    18          06    12
        """)
        Self.expectFits(lines, 80)
        // Narrower terminals get 80 columns all the same.
        #expect(Self.graph(48).lines(width: 40, ascii: false) == lines)
    }

    @Test func anHourAColumnInASCIIAt80Columns() {
        let lines = Self.graph(48).lines(width: 80, ascii: true)
        #expect(lines.joined(separator: "\n") == """
            9.0C +###=.                 .=###=.                 .=
                 |     -               -       -               -
                 |      =.           .=         =.           .=
                 |        -         -             -         -
                 |         =       =               =       =
            1.0C +          #-...-#                 #-...-#
          chance +==#### ... .....-----=====#### ... .....-----===
          1.4 mm +                        .--==##
                 +----------+-----------------------+-------------
                  Mon 23    Tue 24                  Wed 25
                      18          06    12    18          06    12
        """)
        Self.expectFits(lines, 80)
        let ascii = lines.joined().unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii)
    }

    @Test func sixteenDaysAt80ColumnsTakeSixHoursAColumn() {
        let graph = Self.graph(384)
        #expect(graph.hoursPerColumn(width: 80) == 6)
        let lines = graph.lines(width: 80, ascii: false)
        #expect(lines.joined(separator: "\n") == """
           8.4°C ┤█   █   █   █   █   █   █   █   █   █   █   █   █   █   █   █
                 │   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂   ▂
                 │
                 │
                 │ ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇   ▇
           1.7°C ┤  ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁   ▁
          chance ┤█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆█▂▃▆
          4.2 mm ┤    █▃
                 └─┬───┬───┬───┬───┬───┬───┬───┬───┬───┬───┬───┬───┬───┬───┬───┬──
                   Tue Wed Thu Fri Sat Sun Mon Tue Wed Thu Fri Sat Sun Mon Tue
        """)
        Self.expectFits(lines, 80)
    }

    @Test func aWeekAt120ColumnsTakesTwoHoursAColumn() {
        let graph = Self.graph(168)
        #expect(graph.hoursPerColumn(width: 120) == 2)
        let lines = graph.lines(width: 120, ascii: false)
        #expect(lines.joined(separator: "\n") == """
           9.0°C ┤█▇         ▃█▇         ▃█▇         ▃█▇         ▃█▇         ▃█▇         ▃█▇         ▃
                 │  ▇       ▁   ▇       ▁   ▇       ▁   ▇       ▁   ▇       ▁   ▇       ▁   ▇       ▁
                 │   ▃           ▃           ▃           ▃           ▃           ▃           ▃
                 │         ▆           ▆           ▆           ▆           ▆           ▆           ▆
                 │    █   ▂       █   ▂       █   ▂       █   ▂       █   ▂       █   ▂       █   ▂
           1.1°C ┤     ▆▁▂         ▆▁▂         ▆▁▂         ▆▁▂         ▆▁▂         ▆▁▂         ▆▁▂
          chance ┤▆▇█▁▂▁▂▂▃▄▅▆▆▇█▁▂▁▂▂▃▄▅▆▆▇█▁▂▁▂▂▃▄▅▆▆▇█▁▂▁▂▂▃▄▅▆▆▇█▁▂▁▂▂▃▄▅▆▆▇█▁▂▁▂▂▃▄▅▆▆▇█▁▂▁▂▂▃▄▅▆
          2.2 mm ┤            ▃▆█▆
                 └─────┬───────────┬───────────┬───────────┬───────────┬───────────┬───────────┬──────
                  Mon  Tue 24      Wed 25      Thu 26      Fri 27      Sat 28      Sun 29      Mon 30
                    18    06 12 18    06 12 18    06 12 18    06 12 18    06 12 18    06 12 18    06
        """)
        Self.expectFits(lines, 120)
    }

    @Test func fourDaysInASCIIAt120ColumnsInImperialUnits() {
        let lines = Self.graph(96, units: .imperial).lines(width: 120, ascii: true)
        #expect(lines.joined(separator: "\n") == """
           48.2F +###=.                 .=###=.                 .=###=.                 .=###=.                 .=
                 |     -               -       -               -       -               -       -               -
                 |      =.           .=         =.           .=         =.           .=         =.           .=
                 |        -         -             -         -             -         -             -         -
                 |         =       =               =       =               =       =               =       =
           33.8F +          #-...-#                 #-...-#                 #-...-#                 #-...-#
          chance +==#### ... .....-----=====#### ... .....-----=====#### ... .....-----=====#### ... .....-----===
         0.06 in +                        .--==##
                 +----------+-----------------------+-----------------------+-----------------------+-------------
                  Mon 23    Tue 24                  Wed 25                  Thu 26                  Fri 27
                      18          06    12    18          06    12    18          06    12    18          06    12
        """)
        Self.expectFits(lines, 120)
        let ascii = lines.joined().unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii)
    }

    @Test func noHoursDrawNothing() {
        #expect(Self.graph(0).lines(width: 80, ascii: false).isEmpty)
    }

    /// Temperatures no place has (a server's 1e308, −1e308, an infinity) would make the scale's
    /// span infinite and each height not a number: such hours are left out, the rest drawn.
    @Test func temperaturesNoPlaceHasAreLeftOutNotDrawn() {
        var hours = Self.hours(24)
        hours[3].temperature = 1e308
        hours[4].temperature = -1e308
        hours[5].temperature = .infinity
        let lines = ForecastGraphViewData(hours: hours, units: .metric, utcOffset: 3600).lines(width: 80, ascii: false)
        let sane = ForecastGraphViewData(hours: Array(hours[0..<3] + hours[6...]), units: .metric, utcOffset: 3600).lines(width: 80, ascii: false)
        #expect(!lines.isEmpty && lines == sane)
        #expect(ForecastGraphViewData(hours: [hours[3], hours[4]], units: .metric, utcOffset: 3600).lines(width: 80, ascii: false).isEmpty)
    }
}
