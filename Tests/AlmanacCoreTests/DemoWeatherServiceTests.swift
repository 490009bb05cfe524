@testable import AlmanacCore
@testable import AlmanacDemo
import AlmanacModels
import Foundation
import Locking
import TestHarness
import Testing

/// The demo weather tells no contradictions: its invariants over many seeds, places and
/// steps (and clock times, so that the hours ahead cross midnight at every offset).
@Suite(.onTestThreads, .timeLimit(.hang)) struct DemoWeatherServiceTests {
    // Six seeds and 100 steps: the same invariants, at a third of the CPU (these run on the
    // test pool's few threads, beside tests that wait for tasks to be scheduled).
    static let seeds: [UInt64] = [0, 1, 0xDEAD_BEEF, .max] + (1..<3).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
    static let places = DemoPlaces.all.map(\.name) + ["-45.5,170.5", "78,15"]
    static let steps = 0..<100
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static let rainCodes: Set<Int> = [51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 80, 81, 82, 95, 96, 99]
    static let snowCodes: Set<Int> = [71, 73, 75, 77, 85, 86]

    /// Every reading of `place` for `seed`, step by step, an hour of clock apart at most.
    static func readings(_ place: String, seed: UInt64) -> [WeatherReading] {
        let clock = TestClock()
        let service = DemoWeatherService(seed: seed, clock: { clock.now })
        return steps.compactMap { step in
            clock.advance(Double(step % 7) * 397)
            return service.reading(for: place, step: step)
        }
    }

    /// What contradicts itself in a condition: rain or snow only with an amount, an amount
    /// only with rain or snow, snow only when cold, a clear sky only with a small chance.
    static func conditionProblems(_ code: Int, temperature: Double, precipitation: Double, chance: Double, _ what: String) -> [String] {
        var problems: [String] = []
        let falling = rainCodes.contains(code) || snowCodes.contains(code)
        if falling != (precipitation > 0) { problems.append("\(what): code \(code) with \(precipitation) mm") }
        if snowCodes.contains(code), temperature > 2 { problems.append("\(what): snow (\(code)) at \(temperature) °C") }
        if code == 0, chance > 15 { problems.append("\(what): a clear sky with a \(chance)% chance") }
        if code == 1, chance > 30 { problems.append("\(what): mainly clear with a \(chance)% chance") }
        if precipitation > 0, chance < 50 { problems.append("\(what): \(precipitation) mm with a \(chance)% chance") }
        return problems
    }

    // Each check gathers what it finds and expects nothing found: a few expectations, not
    // millions, over 6 seeds × 12 places × 100 steps.

    @Test(arguments: seeds) func theCurrentTemperatureLiesInsideTodaysRangeAndMovesGently(seed: UInt64) {
        var problems: [String] = []
        for place in Self.places {
            let readings = Self.readings(place, seed: seed)
            #expect(readings.count == Self.steps.count)
            for (step, reading) in readings.enumerated() {
                let what = "\(place) step \(step)"
                guard let today = reading.daily.first else { problems.append("\(what): no days"); continue }
                if today.day != CalendarDay.string(daysSinceEpoch: Int(reading.observedAt.timeIntervalSince1970 / 86_400)) {
                    problems.append("\(what): the first day is \(today.day)")
                }
                if !(today.temperatureMin...today.temperatureMax).contains(reading.temperature) || today.temperatureMin >= today.temperatureMax {
                    problems.append("\(what): \(reading.temperature) under \(today.temperatureMax) / \(today.temperatureMin)")
                }
                if step > 0, abs(reading.temperature - readings[step - 1].temperature) > 0.5 + 1e-9 {
                    problems.append("\(what): from \(readings[step - 1].temperature) to \(reading.temperature)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, such as \(problems.prefix(5))")
    }

    @Test(arguments: seeds) func conditionsAgreeWithTemperatureAndPrecipitation(seed: UInt64) {
        var problems: [String] = []
        for place in Self.places {
            for (step, reading) in Self.readings(place, seed: seed).enumerated() {
                let what = "\(place) step \(step)"
                problems += Self.conditionProblems(reading.weatherCode, temperature: reading.temperature, precipitation: reading.precipitation,
                                                   chance: reading.hourly.first?.precipitationProbability ?? 0, what + " now")
                for hour in reading.hourly {
                    problems += Self.conditionProblems(hour.weatherCode, temperature: hour.temperature, precipitation: hour.precipitation,
                                                       chance: hour.precipitationProbability, what + " at \(hour.time)")
                }
                for day in reading.daily {
                    problems += Self.conditionProblems(day.weatherCode, temperature: day.temperatureMax, precipitation: day.precipitation,
                                                       chance: day.precipitationProbability, what + " on \(day.day)")
                    if day.temperatureMin >= day.temperatureMax { problems.append("\(what): \(day.day) from \(day.temperatureMin) to \(day.temperatureMax)") }
                }
                guard let today = reading.daily.first else { continue }
                // Clear now: the rest of today is not likely to bring rain.
                if reading.weatherCode == 0, today.precipitationProbability > 50 {
                    problems.append("\(what): clear now, \(today.precipitationProbability)% today")
                }
                // Falling now: today's forecast says so too.
                if reading.precipitation > 0, today.precipitation <= 0 || today.precipitationProbability < 50 {
                    problems.append("\(what): \(reading.precipitation) mm now, today \(today.precipitation) mm at \(today.precipitationProbability)%")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, such as \(problems.prefix(5))")
    }

    @Test(arguments: seeds) func theHoursAheadGoOnFromNowAndLieInsideTheirDays(seed: UInt64) {
        var problems: [String] = []
        for place in Self.places {
            for (step, reading) in Self.readings(place, seed: seed).enumerated() {
                let what = "\(place) step \(step)"
                guard let first = reading.hourly.first else { problems.append("\(what): no hours"); continue }
                if first.temperature != reading.temperature { problems.append("\(what): now \(reading.temperature), this hour \(first.temperature)") }
                if first.time > reading.observedAt || reading.observedAt.timeIntervalSince(first.time) >= 3600 {
                    problems.append("\(what): the first hour, \(first.time), is not the current one")
                }
                for (before, after) in zip(reading.hourly, reading.hourly.dropFirst()) {
                    if after.time.timeIntervalSince(before.time) != 3600 { problems.append("\(what): \(before.time) then \(after.time)") }
                    if abs(after.temperature - before.temperature) > 1.5 {
                        problems.append("\(what): \(before.temperature) then \(after.temperature) an hour later")
                    }
                }
                for hour in reading.hourly {
                    let day = CalendarDay.string(daysSinceEpoch: Int((hour.time.timeIntervalSince1970 / 86_400).rounded(.down)))
                    guard let daily = reading.daily.first(where: { $0.day == day }) else { problems.append("\(what): no day for \(hour.time)"); continue }
                    if !(daily.temperatureMin...daily.temperatureMax).contains(hour.temperature) {
                        problems.append("\(what): \(hour.temperature) at \(hour.time) under \(daily.temperatureMax) / \(daily.temperatureMin)")
                    }
                    if daily.precipitationProbability < hour.precipitationProbability || daily.precipitation < hour.precipitation {
                        problems.append("\(what): \(hour.precipitation) mm (\(hour.precipitationProbability)%) at \(hour.time), \(daily.precipitation) mm (\(daily.precipitationProbability)%) that day")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, such as \(problems.prefix(5))")
    }

    @Test func theSameSeedGivesTheSameWeatherAndAnotherSeedOther() {
        let one = DemoWeatherService(seed: 7, clock: { Self.start })
        let again = DemoWeatherService(seed: 7, clock: { Self.start })
        let other = DemoWeatherService(seed: 8, clock: { Self.start })
        for place in Self.places {
            #expect(one.reading(for: place, step: 5) == again.reading(for: place, step: 5))
            #expect(one.reading(for: place, step: 5) != other.reading(for: place, step: 5))
            #expect(one.reading(for: place, step: 5) != one.reading(for: place, step: 6), "\(place) does not move")
        }
        // Seeds from the clock differ between runs (a microsecond apart is enough).
        #expect(DemoSeed.fromClock(Self.start) != DemoSeed.fromClock(Self.start.addingTimeInterval(0.000_01)))
    }

    @Test func eachRefreshOfAPlaceIsOneStepOn() async {
        let service = DemoWeatherService(seed: 3, clock: { Self.start })
        let delegate = RecordingDelegate()
        service.delegate = delegate
        for _ in 0..<3 {
            await service.refresh(["Paris", "Berlin"])
            await service.refresh(["paris"])
        }
        let readings = delegate.readings.withLock { $0 }
        let paris = readings.filter { $0.placeName == "Paris" }.map(\.temperature)
        let expected = (0..<6).compactMap { service.reading(for: "Paris", step: $0)?.temperature }
        #expect(paris == expected)
        #expect(readings.filter { $0.placeName == "Berlin" }.map(\.temperature)
            == (0..<3).compactMap { service.reading(for: "Berlin", step: $0)?.temperature })
    }

    @Test func unknownPlacesAreRefusedAndCoordinatesAccepted() async {
        let service = DemoWeatherService(seed: 1, clock: { Self.start })
        #expect(service.reading(for: "52.52, 13.41", step: 1)?.latitude == 52.52)
        #expect(service.reading(for: "95,0", step: 1) == nil)
        #expect(service.reading(for: "Atlantis", step: 1) == nil)
    }
}
