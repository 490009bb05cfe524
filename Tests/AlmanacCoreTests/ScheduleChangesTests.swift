import AlmanacCore
import TestHarness
import Testing

/// A document's schedule changes reach every listener (the daemon has two for weather: its
/// scheduler and the locator of "here"), and a listener that stops reading is let go.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ScheduleChangesTests {
    @Test func twoListenersBothHearAScheduleChange() async {
        let weather = WeatherDocument(logger: .discarding)
        var scheduler = weather.scheduleChanges.stream().makeAsyncIterator()
        var locator = weather.scheduleChanges.stream().makeAsyncIterator()
        weather.forgetUnwanted()
        #expect(await scheduler.next() != nil)
        #expect(await locator.next() != nil)
    }

    @Test func aListenerThatStopsReadingIsRemoved() async {
        let changes = ScheduleChanges()
        let listening = Task { for await _ in changes.stream() {} }
        #expect(await eventually { changes.listenerCount == 1 })
        listening.cancel()
        await listening.value
        #expect(changes.listenerCount == 0)

        _ = changes.stream()
        #expect(changes.listenerCount == 0, "a stream dropped unread is no listener")
        changes.send()
    }
}
