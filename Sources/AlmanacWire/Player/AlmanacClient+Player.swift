public import AlmanacModels
public import DBus

extension AlmanacClient {
    /// Sets the sleep timer (`Player1.Sleep`): `seconds` from now, or `end` (`episode`,
    /// `chapter`); the timer as set.
    public func sleep(seconds: Double? = nil, end: String? = nil) async throws -> SleepTimerState? {
        let options = try WireCoding.fields(SleepRequest(seconds: seconds, end: end))
        return try WireCoding.decodeIfAny(SleepTimerProperty.self, fromFields: try await playerCall(BusContract.Player1.sleep, options))?.state
    }

    /// Cancels the sleep timer (`Player1.CancelSleep`); whether one was set.
    public func cancelSleep() async throws -> Bool {
        try await playerCall(BusContract.Player1.cancelSleep, ())
    }

    /// Moves the player `offset` chapters on (`Player1.SeekChapter`); the chapter it went to.
    public func seekChapter(_ offset: Int32) async throws -> FeedChapter? {
        try WireCoding.decodeIfAny(ChapterMark.self, fromFields: try await playerCall(BusContract.Player1.seekChapter, offset))?.chapter
    }

    /// The sleep timer set now (`Player1.SleepTimer`), `nil` when none is.
    public func sleepTimer() async throws -> SleepTimerState? {
        let timer = try await connection.property(BusContract.Player1.sleepTimer, on: BusContract.serviceName, path: BusContract.playerPath)
        return try WireCoding.decodeIfAny(SleepTimerProperty.self, fromFields: timer.value.stringKeyedEntries ?? [:])?.state
    }

    /// What a media player has open now (`Player1.NowPlaying`), `nil` when none has an episode.
    public func nowPlaying() async throws -> NowPlaying? {
        let playing = try await connection.property(BusContract.Player1.nowPlaying, on: BusContract.serviceName, path: BusContract.playerPath)
        return try WireCoding.decodeIfAny(NowPlaying.self, fromFields: playing.value.stringKeyedEntries ?? [:])
    }

    /// `PropertiesChanged` of the player object: `NowPlaying` and `SleepTimer` as they change.
    public func playerChanges() async throws -> SignalStream {
        try await connection.signals(matching: MatchRule(interface: .properties, member: "PropertiesChanged", path: BusContract.playerPath),
                                     bufferLimit: 64)
    }

    private func playerCall<A, R>(_ method: BusMethod<A, R>, _ arguments: A.Values) async throws -> R.Values {
        try await connection.call(method, on: BusContract.serviceName, path: BusContract.playerPath, arguments, timeout: .seconds(30))
    }
}
