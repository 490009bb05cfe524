import AlmanacBus
import AlmanacCore
import AlmanacServices
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// `GetState` takes its snapshot in turn with the document's owner (`DocumentObject.snapshot`):
/// a client's read sees the changes it sent before, and a read waiting for a busy owner holds
/// no thread meanwhile.
@Suite(.onTestThreads, .timeLimit(.hang)) struct GetStateSnapshotTests {
    static let weather = BusContract.documentPath(.weather)

    /// A Submit, then a GetState, from one client while the owner is busy: both wait in the
    /// owner's mailbox, and the state read is the one after the Submit.
    @Test func aGetStateSeesTheSubmitSentBeforeIt() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            let before = try await client.state(of: .weather)
            let hold = OwnerHold(almanac.weather.onOwner)
            try client.connection.callWithoutReply(BusContract.serviceName, path: Self.weather, interface: BusContract.documentInterface,
                                                   method: BusContract.Document1.submit.name) { try $0.write(arguments: ["units": Value.string("imperial")]) }
            let read = Task { try await client.state(of: .weather) }
            let bothWaiting = await eventually { almanac.weather.waitingForOwner == 2 }
            hold.release()
            #expect(bothWaiting, "the Submit and the read wait for the owner")
            let (revision, state) = try await read.value
            #expect(revision == before.revision + 1 && state["units"] == .string("imperial"), "\(revision) \(state["units"] ?? .string("?"))")
        }
    }

    /// More GetStates than Swift's pool has threads wait for a held owner; the other
    /// document's GetState, which needs a thread of that pool for its answer, is answered
    /// meanwhile. (Were each read waiting on a thread, it would wait for the hold's end: the
    /// call times out, and the test fails.)
    @Test func getStatesWaitingForABusyOwnerHoldNoThread() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let readers = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
            // Well under the 16 calls of one client that run at once.
            let perClient = 8
            var clients: [AlmanacClient] = []
            for _ in 0..<(readers + perClient - 1) / perClient { clients.append(try await almanac.connect()) }
            let other = try await almanac.connect()
            let before = try await other.state(of: .weather)
            let hold = OwnerHold(almanac.weather.onOwner)
            let reads = Task { [clients] in
                try await withThrowingTaskGroup(of: UInt64.self) { group in
                    for n in 0..<readers {
                        let client = clients[n / perClient]
                        group.addTask { try await client.state(of: .weather).revision }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let allWaiting = await eventually { almanac.weather.waitingForOwner == readers }
            await #expect(throws: Never.self, "the podcasts document's GetState is answered while the weather owner is held") {
                _ = try await other.connection.call(BusContract.serviceName, path: BusContract.documentPath(.podcasts), interface: BusContract.documentInterface,
                                                method: BusContract.Document1.getState.name, timeout: .seconds(30)) { _ in }
            }
            hold.release()
            #expect(allWaiting, "\(readers) reads wait for the weather owner")
            let revisions = try await reads.value
            #expect(revisions.count == readers && revisions.allSatisfy { $0 == before.revision })
        }
    }
}
