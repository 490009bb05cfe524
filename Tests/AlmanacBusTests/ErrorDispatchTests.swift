@testable import AlmanacBus
import AlmanacCore
import AlmanacFeeds
import AlmanacModels
import AlmanacServices
import AlmanacWire
import DBus
import Logging
import TestHarness
import Testing

/// The one dispatch path (`ErrorReplies`, the rule on the daemon's connection), for every
/// error type that names itself: each, thrown by a handler on a real bus, reaches the caller
/// as an error reply named `org.almanac.Error.*` or `org.freedesktop.DBus.Error.*`, with its
/// own non-empty message, and none takes the path of an error that names nothing.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ErrorDispatchTests {
    /// Every code of a `CodedError`, each with a message as its concern writes one.
    static func everyCode<Code: ErrorCode & CaseIterable>(_: Code.Type) -> [any NamedError] {
        Code.allCases.map { CodedError($0, "Something of kind \($0) went wrong; here is what to do.") }
    }

    /// One error of every type that adopts `NamedError`, every code of every `CodedError`;
    /// where the type makes its own message, that message.
    static func samples() throws -> [any NamedError] {
        var samples: [any NamedError] = [
            SubmissionError("'units' is 'metric' or 'imperial'."),
            LocationNotSaved(location: "Atlantis", saved: ["Berlin"]),
            StorageError("Could not save the units: disk I/O error."),
            PodcastSearchError("The podcast directory could not be asked."),
            FetchError("example.com answered HTTP 503."),
            SearchTooBroad(budget: 1),
        ]
        samples += everyCode(SyncCode.self) + everyCode(SteeringCode.self) + everyCode(DownloadRefusalCode.self)
            + everyCode(FeedInspectionCode.self) + everyCode(FeedParseCode.self) + everyCode(LinkedFileCode.self) + everyCode(BackupCode.self)
        // A FeedParseError as the parser makes it, its own words.
        do throws(FeedParseError) {
            _ = try FeedParser.parse(Array("<html><body>a page</body></html>".utf8))
        } catch {
            samples.append(error)
        }
        return samples
    }

    /// The type's name as Sources declare it: `SubmissionError`, or a `CodedError`'s codes.
    static func declaredName(_ error: any NamedError) -> String {
        let name = String(describing: type(of: error))
        guard name.hasPrefix("CodedError<") else { return name }
        return String(name.dropFirst("CodedError<".count).dropLast())
    }

    @Test func theSamplesHoldEveryTypeThatNamesItselfAndEveryCode() throws {
        let declared = try ErrorDeclarations.read()
        let sampled = Set(try Self.samples().map(Self.declaredName))
        // Every type that adopts NamedError (CodedError through its codes), and nothing else.
        #expect(sampled == declared.named.subtracting(["CodedError"]).union(declared.codes),
                "add a sample of each new error that names itself: \(declared.named.union(declared.codes).symmetricDifference(sampled))")
    }

    static let path = ObjectPath("/org/almanac/Dispatch")
    static let interfaceName = InterfaceName("org.almanac.Dispatch1")

    @Test func everyErrorThatNamesItselfReachesTheCallerAsItsNameAndMessage() async throws {
        let samples = try Self.samples()
        let bus = try PrivateBus()
        let server = try await Connection.connect(to: bus.address)
        let client = try await Connection.connect(to: bus.address)
        let log = RecordingLogHandler()
        ErrorReplies.answer(on: server, logger: log.logger)
        try server.export([Interface(Self.interfaceName.rawValue, methods: [
            Method("Throw", inputs: [Argument("index", .uint32)], async: { call, _ in
                let (index) = try call.arguments(UInt32.self)
                throw samples[Int(index)]
            }),
        ])], at: Self.path)
        for (index, sample) in samples.enumerated() {
            let reply = try await #require(throws: BusError.self) {
                _ = try await client.call(server.uniqueName, path: Self.path, interface: Self.interfaceName, method: "Throw", arguments: UInt32(index))
            }
            let name = reply.name.rawValue
            #expect(ErrorName.isValid(name) && (name.hasPrefix("org.almanac.Error.") || name.hasPrefix("org.freedesktop.DBus.Error.")), "\(sample): \(name)")
            #expect(name == sample.errorName.rawValue, "\(type(of: sample)): \(name)")
            #expect(!sample.message.isEmpty && reply.message == sample.message, "\(type(of: sample)): \(reply.message)")
            #expect(reply.message != ErrorReplies.unnamedMessage)
        }
        // None went the way of an error that names nothing.
        #expect(log.entries(at: .error).isEmpty, "\(log.entries(at: .error).map(\.message))")
        await client.close()
        await server.close()
        bus.stop()
    }
}
