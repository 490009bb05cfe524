@testable import AlmanacViews
import TestHarness
import Testing

/// Fitting lines and tables into a width: what gives way first, and that nothing is wider.
@Suite(.onTestThreads, .timeLimit(.hang)) struct LayoutTests {
    @Test func aLineDropsItsLeastUsefulFieldsFirst() {
        let fields: [LineField] = [
            .kept("Berlin"),
            LineField(["⛅ Partly cloudy", "⛅"], priority: 40),
            .kept("9.7°C"),
            .optional("humidity 35%", priority: 10),
            .optional("wind 4 km/h", priority: 20, separator: " · "),
        ]
        #expect(fitLine(fields, width: 100).plain == "Berlin  ⛅ Partly cloudy  9.7°C  humidity 35% · wind 4 km/h")
        #expect(fitLine(fields, width: 45).plain == "Berlin  ⛅ Partly cloudy  9.7°C · wind 4 km/h")
        #expect(fitLine(fields, width: 31).plain == "Berlin  ⛅ Partly cloudy  9.7°C")
        #expect(fitLine(fields, width: 20).plain == "Berlin  ⛅  9.7°C")
        // Nothing left to give: cut.
        #expect(fitLine(fields, width: 12).plain == "Berlin  ⛅…")
        for width in 1...100 { #expect(fitLine(fields, width: width).width <= width) }
    }

    static let table = Table(
        [
            TableColumn("ID"),
            TableColumn("Title", shrink: (minimum: 8, priority: 20)),
            TableColumn("Length", alignment: .right, drop: 10),
            TableColumn("Notes", drop: 30),
            TableColumn("Empty", drop: 5),
        ],
        rows: [
            ["a1", StyledLine("東京の天気", .bold), "1:02:03", "—", ""],
            ["b22", "Weather ☀ everywhere", "45:00", "new", ""],
        ]
    )

    @Test func aTableAlignsByColumnsUnderItsHeader() {
        let lines = Self.table.lines(width: 80).map(\.plain)
        #expect(lines == [
            "ID   Title                  Length  Notes",
            "a1   東京の天気            1:02:03  —",
            "b22  Weather ☀ everywhere    45:00  new",
        ])
    }

    @Test func aNarrowTableDropsThenShrinksInItsColumnsOrder() {
        #expect(Self.table.lines(width: 36).map(\.plain) == [
            "ID   Title                 Notes",
            "a1   東京の天気            —",
            "b22  Weather ☀ everywhere  new",
        ])
        #expect(Self.table.lines(width: 24).map(\.plain) == [
            "ID   Title         Notes",
            "a1   東京の天気    —",
            "b22  Weather ☀ e…  new",
        ])
        #expect(Self.table.lines(width: 16).map(\.plain) == [
            "ID   Title",
            "a1   東京の天気",
            "b22  Weather ☀…",
        ])
        for width in 1...60 {
            for line in Self.table.lines(width: width) { #expect(line.width <= width, "\(width): \(line.plain)") }
        }
        #expect(Self.table.lines(width: 80, header: false).count == 2)
    }
}
