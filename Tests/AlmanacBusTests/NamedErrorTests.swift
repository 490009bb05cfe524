import AlmanacBus
import AlmanacCore
import AlmanacFeeds
import AlmanacModels
import AlmanacServices
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Errors that name themselves (issue 40): every error of the daemon that can reach a client
/// adopts `NamedError` where it is defined, and each names what the translators that came
/// before named it.
@Suite(.onTestThreads, .timeLimit(.hang)) struct NamedErrorTests {
    /// Error types that never reach a client as they are, and why.
    static let neverReplied: [String: String] = [
        "OPMLError": "FeedInspector turns it into FeedInspectionError.notAFeed",
        "JSONReadError": "read inside the services, which answer with their own errors (PodcastSearchError, LinkedFileError, SyncError)",
        "TranscriptParseError": "TranscriptFetcher turns it into a LinkedFileError",
        "SQLiteError": "the store turns it into a StorageError",
        "TransportError": "HTTPClient turns it into a FetchError",
        "TooLarge": "BoundedDownloads' signal to HTTPClient, which throws a FetchError",
        "AuthenticationRequired": "BoundedDownloads' signal to HTTPClient, which throws a FetchError",
        "RedirectRefused": "BoundedDownloads' signal to HTTPClient, which throws a FetchError",
        "Probe": "GpodderClient's probe of a server's flavour, answered as a SyncError",
        "Found": "DownloadManager's early exit with a job found, never thrown out of it",
        "Unsubscribed": "PodcastsDocument.fetched's early exit when the podcast went meanwhile, caught there",
        "StoreFault": "PodcastsDocument.fetched's store failure, caught there, logged and announced as the feed's failure",
        "DownloadError": "a download's failure, shown as its job's Error property",
        "DemoError": "a demo fetch's failure, shown as the document's LastError",
        "PlaceNotFound": "a weather fetch's failure, shown as the document's LastError and a reading's error",
        "TimeLimitExceeded": "withTimeLimit's, caught by MachineWatcher's start, which logs it and goes on without the system bus",
        "TitlePatternError": "TitlePattern.refusal's reason, which the settings' and feeds' checks send as a SubmissionError",
    ]

    @Test func everyErrorThatCanReachAClientNamesItself() throws {
        let found = try ErrorDeclarations.read()
        let errors = found.errors, named = found.named
        let unnamed = errors.filter { !named.contains($0) && Self.neverReplied[$0] == nil }
        #expect(unnamed.isEmpty, "adopt NamedError where each is defined, or say in neverReplied why it never reaches a client: \(unnamed)")
        #expect(Set(Self.neverReplied.keys).subtracting(errors).isEmpty, "neverReplied names a type that is gone: \(Set(Self.neverReplied.keys).subtracting(errors))")
        #expect(named.isSuperset(of: ["CodedError", "SubmissionError", "LocationNotSaved", "StorageError", "PodcastSearchError", "FetchError"]), "\(named)")
    }

    /// Each code's name, as the translators gave it before (Refusals, PlayerExport.busError,
    /// SyncCodec.busError, PodcastsAdapter.inspectError).
    @Test func eachCodeNamesWhatItWasNamedBefore() {
        let sync: [SyncCode: ClientErrorName] = [.invalid: .invalidArgs, .notLoggedIn: .notLoggedIn, .loggedIn: .alreadyLoggedIn, .refused: .authenticationFailed]
        for code in SyncCode.allCases { #expect(code.errorName == sync[code] ?? .syncFailed, "\(code)") }
        let steering: [SteeringCode: ClientErrorName] = [.noPlayer: .noPlayer, .cannotTell: .notSupported, .playerFailed: .playerFailed]
        for code in SteeringCode.allCases { #expect(code.errorName == steering[code], "\(code)") }
        let downloads: [DownloadRefusalCode: ClientErrorName] = [.limit: .limitsExceeded, .notOwner: .accessDenied, .unknownJob: .unknownObject]
        for code in DownloadRefusalCode.allCases { #expect(code.errorName == downloads[code], "\(code)") }
        for code in FeedInspectionCode.allCases { #expect(code.errorName == (code == .notAFeed ? .notAFeed : .fetchFailed), "\(code)") }
        for code in FeedParseCode.allCases { #expect(code.errorName == .notAFeed, "\(code)") }
        for code in LinkedFileCode.allCases { #expect(code.errorName == .fetchFailed, "\(code)") }
        // AlmanacServer.backingUp's switch, before.
        let backups: [BackupCode: ClientErrorName] = [.noBackup: .noBackup, .unusable: .unusableBackup, .invalidName: .invalidArgs, .tooLarge: .limitsExceeded,
                                                       .noSpace: .notEnoughSpace]
        for code in BackupCode.allCases { #expect(code.errorName == backups[code] ?? .failed, "\(code)") }
    }

    /// The errors with one name, and their message on the wire as it was.
    @Test func errorsOfOneKindKeepTheirWireNameAndMessage() {
        let wire = { (error: any NamedError) in BusError(error) }
        #expect(wire(SubmissionError("Say which.")) == BusError(.invalidArgs, "Say which."))
        let notSaved = LocationNotSaved(location: "Atlantis", saved: ["Berlin"])
        #expect(wire(notSaved) == BusError(BusContract.unknownLocation, "'Atlantis' is not a saved location. Saved: Berlin."))
        #expect(wire(StorageError("Could not save the units in /s/state.sqlite: disk I/O error."))
            == BusError(.failed, "Could not save the units in /s/state.sqlite: disk I/O error. Nothing was changed."))
        #expect(wire(PodcastSearchError("The podcast directory could not be asked.")) == BusError(BusContract.fetchFailed, "The podcast directory could not be asked."))
        #expect(wire(FetchError("example.com answered HTTP 503.")) == BusError(BusContract.fetchFailed, "example.com answered HTTP 503."))
        #expect(wire(DownloadRefusal.notOwner("Download 3 belongs to :1.1.")) == BusError(.accessDenied, "Download 3 belongs to :1.1."))
        #expect(wire(FeedInspectionError.notAFeed("This is a web page.")) == BusError(BusContract.notAFeed, "This is a web page."))
        #expect(wire(SyncError(.loggedIn, "Log out first.")) == BusError(BusContract.alreadyLoggedIn, "Log out first."))
        let tooBroad = SearchTooBroad(budget: 1)
        #expect(wire(tooBroad) == BusError(BusContract.searchTooBroad, tooBroad.message))
    }

    @Test func everyNameIsAValidDistinctBusErrorNameThatBusAPIListsAndAllHoldsThemAll() throws {
        let names = ClientErrorName.all.map(\.rawValue)
        #expect(Set(names).count == names.count, "\(names)")
        for name in names { #expect(ErrorName.isValid(name), "\(name)") }
        // `all` holds every constant declared.
        let source = try String(contentsOfFile: SourceTree.path("Sources/AlmanacModels/Errors/ClientErrorName.swift"), encoding: .utf8)
        #expect(source.matches(of: /public static let \w+ = ClientErrorName\(/).count == names.count)
        // docs/bus-api.md's "Errors" table: a row for each, and for no other of ours.
        let api = try String(contentsOfFile: SourceTree.path("docs/bus-api.md"), encoding: .utf8)
        let table = try #require(api.split(separator: "## Errors").last?.split(separator: "\n## ").first)
        let listed = Set(table.matches(of: /`(org\.[\w.]+)`/).map { String($0.1) })
        let ours = Set(listed.filter { $0.hasPrefix("org.almanac.Error.") })
        #expect(ours == Set(names.filter { $0.hasPrefix("org.almanac.Error.") }), "\(ours)")
        for name in names where !listed.contains(name) {
            // A standard name may share a row (`UnknownMethod` / `UnknownInterface` / `UnknownObject`).
            #expect(table.contains("`\(name.split(separator: ".").last!)`"), "docs/bus-api.md lists no \(name)")
        }
    }
}
