import AlmanacModels
import DBus
import FoundationEssentials

/// The sleep timer that is set: what it waits for, on which player and episode, and when it
/// pauses as things stand (`nil` while that cannot be told).
struct SleepTimerStatus: Sendable, Hashable {
    let timer: SleepTimer
    let owner: BusName
    let episodeID: String
    let pausesAt: Date?
}
