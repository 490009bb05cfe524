@testable import AlmanacCore
@testable import AlmanacDemo
import AlmanacModels
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// A fixed data source (a fake of our own protocol).
final class FixedLocations: WeatherServiceDataSource, Sendable {
    let locations: [String]
    init(_ locations: [String]) { self.locations = locations }
    func locationsToFetch(for service: any WeatherService) -> [String] { locations }
}

@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherDocumentTests {
    static let fixedDate = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func serviceAsksItsDataSourceAndReportsToItsDelegate() async {
        let service = DemoWeatherService(clock: { Self.fixedDate })
        let source = FixedLocations(["Berlin", "Atlantis"])
        let delegate = RecordingDelegate()
        service.dataSource = source
        service.delegate = delegate
        await service.refresh()
        #expect(delegate.readings.withLock { $0.map(\.location) } == ["Berlin"])
        let failures = delegate.weatherFailures.withLock { $0 }
        #expect(failures.keys.sorted() == ["Atlantis"])
        #expect(failures["Atlantis"]?.hasPrefix("The demo provider does not know 'Atlantis'. It knows: Berlin, Paris") == true)
    }

    @Test func serviceHoldsItsDataSourceAndDelegateWeakly() async {
        let service = DemoWeatherService()
        var delegate: RecordingDelegate? = RecordingDelegate()
        service.delegate = delegate
        service.dataSource = FixedLocations(["Paris"])
        #expect(service.delegate != nil)
        #expect(service.dataSource == nil, "a data source nobody else holds is gone")
        delegate = nil
        #expect(service.delegate == nil)
        await service.refresh()
    }

    @Test func documentWantsSavedPlacesAndWhatViewsAskFor() throws {
        let weather = WeatherDocument(logger: .discarding)
        try weather.submit(.savedLocations(["Paris"]), from: nil)
        weather.document.addView(key: ViewKey("/v/1"), options: WeatherViewOptions(location: "Berlin")) { _ in }
        weather.document.addView(key: ViewKey("/v/2"), options: WeatherViewOptions(location: "Paris")) { _ in }
        weather.document.addView(key: ViewKey("/v/3"), options: WeatherViewOptions(location: "Berlin")) { _ in }
        weather.document.addView(key: ViewKey("/v/4")) { _ in }
        #expect(weather.wantedLocations == ["Paris", "Berlin"])
        weather.document.removeView(key: ViewKey("/v/1"))
        weather.document.removeView(key: ViewKey("/v/3"))
        #expect(weather.wantedLocations == ["Paris"])
    }

    @Test func readingsAndFailuresReachTheDocumentAndItsViews() async throws {
        let weather = WeatherDocument(logger: .discarding)
        let service = DemoWeatherService(clock: { Self.fixedDate })
        service.dataSource = weather
        service.delegate = weather
        let heard = Locked<[WeatherChange]>([])
        weather.document.addView(key: ViewKey("v"), options: WeatherViewOptions(location: "Tokyo")) { event in
            if case .changed(_, let change, _) = event { heard.withLock { $0.append(change) } }
        }
        await service.refresh()
        let reading = try #require(weather.document.snapshot.state.readings["Tokyo"])
        #expect(reading.placeName == "Tokyo" && reading.latitude == 35.69)
        #expect(heard.withLock { $0 } == [.reading(reading)])

        // A failure keeps the last good reading and is reported once, not on every retry.
        await weather.weatherService(service, didFailToFetch: "Tokyo", error: DemoError("network down"))
        await weather.weatherService(service, didFailToFetch: "Tokyo", error: DemoError("network down"))
        #expect(weather.document.snapshot.state.readings["Tokyo"] == reading)
        #expect(weather.document.snapshot.state.failures["Tokyo"] == "network down")
        #expect(heard.withLock { $0.count } == 2)
        // Backing off, Tokyo is not due; fetched on purpose, it recovers.
        #expect(weather.locationsToFetch(for: service).isEmpty)
        await service.refresh(["Tokyo"])
        #expect(weather.document.snapshot.state.failures["Tokyo"] == nil)
    }

    @Test func placesNobodyWantsAreForgotten() async throws {
        let weather = WeatherDocument(logger: .discarding)
        let service = DemoWeatherService(clock: { Self.fixedDate })
        service.dataSource = weather
        service.delegate = weather
        weather.document.addView(key: ViewKey("a"), options: WeatherViewOptions(location: "Paris")) { _ in }
        weather.document.addView(key: ViewKey("b"), options: WeatherViewOptions(location: "Atlantis")) { _ in }
        await service.refresh()
        #expect(weather.document.snapshot.state.readings.keys.sorted() == ["Paris"])
        #expect(weather.document.snapshot.state.failures.keys.sorted() == ["Atlantis"])
        weather.document.removeView(key: ViewKey("b"))
        let before = weather.document.revision
        weather.forgetUnwanted()
        OwnerHold.drain(weather.onOwner)
        let revision = weather.document.revision
        #expect(revision == before + 1)
        #expect(weather.document.snapshot.state.failures.isEmpty)
        #expect(weather.document.snapshot.state.readings.keys.sorted() == ["Paris"])
        weather.forgetUnwanted()
        OwnerHold.drain(weather.onOwner)
        #expect(weather.document.revision == revision, "nothing more to forget")
        // A fetch that lands after its place stopped being wanted is not kept.
        await weather.weatherService(service, didFetch: try #require(service.reading(for: "Tokyo", step: 1)))
        #expect(weather.document.snapshot.state.readings["Tokyo"] == nil)
        #expect(weather.document.revision == revision)
    }

    @Test func submissionsAreValidatedBeforeAnythingChanges() throws {
        let weather = WeatherDocument(logger: .discarding)
        #expect(try weather.submit(.units(.imperial), from: ViewKey("v")) == 1)
        #expect(try weather.submit(.units(.imperial), from: ViewKey("v")) == 1, "no change, no revision")
        #expect(throws: SubmissionError.self) { try weather.submit(.savedLocations(["Paris", " "]), from: ViewKey("v")) }
        #expect(throws: SubmissionError.self) {
            try weather.submit(.savedLocations([String(repeating: "x", count: 201)]), from: ViewKey("v"))
        }
        #expect(weather.document.snapshot.state.savedLocations.isEmpty)
        try weather.submit(.savedLocations([" Paris", "Paris", "Berlin "]), from: ViewKey("v"))
        #expect(weather.document.snapshot.state.savedLocations == ["Paris", "Berlin"])
        #expect(weather.document.revision == 2)
    }

    @Test func submissionsWaitingForTheOwnerShareOneWriteAndAreEachAnsweredAfterIt() throws {
        let archive = MemoryWeatherArchive()
        let weather = WeatherDocument(archive: archive, logger: .discarding)
        let heard = Locked<[(UInt64, WeatherChange, ViewKey?)]>([])
        weather.document.addView(key: ViewKey("watcher")) { event in
            if case .changed(let revision, let change, let origin) = event { heard.withLock { $0.append((revision, change, origin)) } }
        }
        let answers = Locked<[UInt64]>([])
        let submissions: [WeatherSubmission] = [.units(.imperial), .savedLocations(["Oslo"]), .units(.metric), .units(.imperial)]
        let hold = OwnerHold(weather.onOwner)
        for (index, submission) in submissions.enumerated() {
            try weather.send(submission, from: ViewKey("v\(index)")) { result in
                answers.withLock { $0.append((try? result.get()) ?? 0) }
            }
        }
        // Nothing is visible, written or answered before the owner takes them.
        #expect(weather.document.revision == 0)
        #expect(heard.withLock { $0.isEmpty } && answers.withLock { $0.isEmpty } && archive.settingsWrites.withLock { $0.isEmpty })
        hold.release()
        OwnerHold.drain(weather.onOwner)
        // One write, of where the submissions lead; then each applied in order, with its own revision.
        #expect(archive.settingsWrites.withLock { $0.map { "\($0.0) \($0.1)" } } == ["imperial [\"Oslo\"]"])
        #expect(answers.withLock { $0 } == [1, 2, 3, 4])
        #expect(heard.withLock { $0.map(\.0) } == [1, 2, 3, 4])
        #expect(heard.withLock { $0.map { $0.2?.rawValue ?? "" } } == ["v0", "v1", "v2", "v3"])
        #expect(weather.document.snapshot.state.units == .imperial)

        // Submissions that end where they began need no write at all.
        let again = OwnerHold(weather.onOwner)
        try weather.send(.units(.metric), from: nil) { _ in }
        try weather.send(.units(.imperial), from: nil) { _ in }
        again.release()
        OwnerHold.drain(weather.onOwner)
        #expect(archive.settingsWrites.withLock { $0.count } == 1)
        #expect(weather.document.revision == 6)
    }

    @Test func aRefusedWriteFailsEverySubmissionOfTheBurstAndChangesNothing() throws {
        let archive = MemoryWeatherArchive()
        let weather = WeatherDocument(archive: archive, logger: .discarding)
        archive.refusing.store(true, ordering: .relaxed)
        let failures = Locked<[String]>([])
        let hold = OwnerHold(weather.onOwner)
        for submission in [WeatherSubmission.units(.imperial), .savedLocations(["Oslo"])] {
            try weather.send(submission, from: ViewKey("v")) { result in
                if case .failure(let error) = result { failures.withLock { $0.append("\(error)") } }
            }
        }
        hold.release()
        OwnerHold.drain(weather.onOwner)
        #expect(failures.withLock { $0 } == ["The disk is full.", "The disk is full."])
        #expect(weather.document.revision == 0)
        #expect(weather.document.snapshot.state.units == .metric)
        #expect(weather.document.snapshot.state.savedLocations.isEmpty)
        // Bad input is refused when it is sent, before any burst.
        #expect(throws: SubmissionError.self) { try weather.send(.savedLocations([" "]), from: nil) { _ in } }
        // Once the disk takes writes again, so does the document.
        archive.refusing.store(false, ordering: .relaxed)
        #expect(try weather.submit(.units(.imperial), from: nil) == 1)
        #expect(archive.settingsWrites.withLock { $0.count } == 1)
    }
}
