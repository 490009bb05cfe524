import AlmanacModels

// How weather views are laid out within a terminal's width: which fields give way first
// at 80 columns (precipitation, then humidity, wind, feels-like), and the forecast tables.

extension WeatherNowViewData {
    /// "Berlin  ⛅ Partly cloudy  9.7°C (feels 7.2°C)  humidity 35%  wind 4 km/h S
    /// precipitation 0.0 mm  · 14:05" within `width`: precipitation goes first, then
    /// humidity, wind, the feeling temperature, why it is stale ("(stale)" stays), the
    /// condition's words (its symbol stays) and the time; the place and the temperature stay.
    /// With `rain`, rain soon ("☔ Rain starting in about 25 min") goes after the feeling
    /// temperature and before the condition's words.
    public func line(width: Int, rain showsRain: Bool = true) -> StyledLine {
        var fields: [LineField] = [
            LineField([StyledLine(place, .bold), StyledLine(truncated(place, to: 20), .bold)], priority: 50),
            LineField([StyledLine("\(symbol) \(condition)"), StyledLine(symbol)], priority: 40),
            .kept(StyledLine(temperature, .bold)),
            .optional(StyledLine("(feels \(feelsLike))"), priority: 30, separator: " "),
            humidity.isEmpty ? .kept(StyledLine()) : .optional(StyledLine("humidity \(humidity)"), priority: 10),
            wind.isEmpty ? .kept(StyledLine()) : .optional(StyledLine("wind \(wind)"), priority: 20),
            .optional(StyledLine("precipitation \(precipitation)"), priority: 5),
        ]
        if showsRain, !rain.isEmpty { fields.append(.optional(StyledLine("☔ \(rain)", .bold), priority: 38)) }
        let stamp = time.isEmpty ? observed : time
        fields.append(.optional(StyledLine("· \(stamp)", .dim), priority: 45))
        // "(stale)" always stays; why and since when give way after the feeling temperature,
        // before the condition's words, the time and the place.
        if let error {
            fields.append(LineField([StyledLine("(stale, updated \(updated): \(error))", .alert), StyledLine("(stale)", .alert)], priority: 35))
        } else if stale {
            fields.append(LineField([StyledLine("(stale, updated \(updated))", .alert), StyledLine("(stale)", .alert)], priority: 35))
        }
        return fitLine(fields, width: width)
    }

    /// "  ☔ Rain starting in about 25 min, for 40 min" (`almanac weather`'s line of its own);
    /// `nil` when no rain is expected in the next two hours.
    public func rainLine(width: Int, indent: Int = 2) -> StyledLine? {
        guard !rain.isEmpty else { return nil }
        return StyledLine(String(repeating: " ", count: indent) + "☔ " + rain, .bold).truncated(to: width)
    }
}

extension DayViewData {
    /// "  Today 14.2°C / 6.2°C · 40% chance of 1.2 mm · sunrise 07:45, sunset 16:30" within
    /// `width`: the sun's times shorten, then the precipitation; then the sun's times go, then
    /// the precipitation.
    public func todayLine(width: Int, indent: Int = 2) -> StyledLine {
        var fields: [LineField] = [.kept(StyledLine(String(repeating: " ", count: indent) + "Today \(high) / \(low)"))]
        if !precipitationChance.isEmpty {
            fields.append(.optional(StyledLine("\(precipitationChance) chance of \(precipitation)"), StyledLine("\(precipitationChance), \(precipitation)"),
                                    shorten: 8, drop: 20, separator: " · "))
        }
        if !sunrise.isEmpty {
            fields.append(.optional(StyledLine("sunrise \(sunrise), sunset \(sunset)"), StyledLine("sun \(sunrise)–\(sunset)"),
                                    shorten: 5, drop: 10, separator: " · "))
        }
        if let moonPhase {
            fields.append(.optional(StyledLine(moon), StyledLine(moonPhase.symbol), shorten: 3, drop: 4, separator: " · "))
        }
        if !moonTimes.isEmpty {
            fields.append(.optional(StyledLine(moonTimes), StyledLine("moon \(moonrise)–\(moonset)"), shorten: 2, drop: 3, separator: " · "))
        }
        return fitLine(fields, width: width)
    }
}

extension HourViewData {
    /// "  11:00 ⛅   9.7°C  13:00 🌦  10.2°C": as many of `hours` as fit in `width`, each
    /// the same width so that the strips of several places line up.
    public static func strip(_ hours: [HourViewData], width: Int, indent: Int = 2) -> StyledLine {
        // At least as wide as "15.4°C", so that a place whose hours are all single digits
        // lines up with its neighbours.
        let temperatureWidth = max(6, hours.map { displayWidth($0.temperature) }.max() ?? 0)
        let cells = hours.map { hour in
            StyledLine("\(hour.time) \(padded(hour.symbol, to: 2)) \(padded(hour.temperature, to: temperatureWidth, alignment: .right))")
        }
        var shown: [StyledLine] = []
        var used = indent
        for cell in cells {
            let needed = (shown.isEmpty ? 0 : 2) + cell.width
            guard used + needed <= width else { break }
            shown.append(cell)
            used += needed
        }
        guard !shown.isEmpty else { return StyledLine() }
        return StyledLine(String(repeating: " ", count: indent)) + shown.joined(separator: "  ")
    }
}

extension Table {
    /// A symbol and a condition ("⛅ Partly cloudy"), the symbol in two columns so that
    /// the words line up whether the symbol is wide (⛅) or narrow (☀).
    static func condition(_ symbol: String, _ text: String) -> StyledLine {
        StyledLine(padded(symbol, to: 2) + " " + text)
    }

    /// `almanac forecast`: day, conditions, high, low, precipitation, its chance, wind, UV,
    /// sunshine, moonrise–moonset ("--:--" for none). Long conditions are cut first, then the
    /// moon, sunshine, UV, wind, the amount and the chance of precipitation go.
    public static func days(_ days: [DayViewData]) -> Table {
        Table(
            [
                TableColumn("Day"),
                TableColumn("Conditions", shrink: (minimum: 12, priority: 10)),
                TableColumn("High", alignment: .right),
                TableColumn("Low", alignment: .right),
                TableColumn("Precip", alignment: .right, drop: 30),
                TableColumn("Chance", alignment: .right, drop: 40),
                TableColumn("Wind", alignment: .right, drop: 20),
                TableColumn("UV", alignment: .right, drop: 15),
                TableColumn("Sun", alignment: .right, drop: 10),
                TableColumn("Moon", alignment: .right, drop: 5),
            ],
            rows: days.map { day in
                [StyledLine(day.day, .bold), condition(day.symbol, day.condition), StyledLine(day.high, .bold), StyledLine(day.low),
                 StyledLine(day.precipitation), StyledLine(day.precipitationChance), StyledLine(day.wind), StyledLine(day.uv), StyledLine(day.sunshine),
                 StyledLine(day.moonrise.isEmpty ? "" : "\(day.moonrise == "none" ? "--:--" : day.moonrise)–\(day.moonset == "none" ? "--:--" : day.moonset)")]
            }
        )
    }

    /// `almanac forecast --hourly`: time, conditions, temperature, chance of precipitation;
    /// the time with its day ("Tue 24 15:00") when there are more than 24 hours.
    public static func hours(_ hours: [HourViewData]) -> Table {
        let days = hours.count > 24
        return Table(
            [
                TableColumn("Time"),
                TableColumn("Conditions", shrink: (minimum: 12, priority: 10)),
                TableColumn("Temp", alignment: .right),
                TableColumn("Chance", alignment: .right, drop: 20),
            ],
            rows: hours.map { hour in
                [StyledLine(days ? "\(hour.day) \(hour.time)" : hour.time), condition(hour.symbol, hour.condition), StyledLine(hour.temperature, .bold),
                 StyledLine(hour.precipitationChance)]
            }
        )
    }
}
