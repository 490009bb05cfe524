import AlmanacModels

extension WeatherDocument {
    /// The settings and saved places (with their last readings) the archive holds, during a
    /// restore; `nil` when the archive keeps none. `StorageError` when they cannot be read.
    func keptState() throws -> WeatherState? {
        try archive?.keptState()
    }

    /// With the owner held (a restore holds it while it runs this on the podcasts document's
    /// owner), the library restored from a backup: its settings and saved places. The
    /// readings, failures and alerts shown stay for the places still wanted — they are newer
    /// than any backup's — and a saved place the document had no reading of gets the backup's.
    /// Every view hears the whole state; places no longer wanted are let go after.
    func restored(_ kept: WeatherState) {
        let current = document.snapshot.state
        let watched = document.views.compactMap(\.options.location)
        let wanted = Set(kept.savedLocations).union(watched)
        var state = kept
        for (location, reading) in current.readings where wanted.contains(location) { state.readings[location] = reading }
        for (location, alerts) in current.alerts where wanted.contains(location) { state.alerts[location] = alerts }
        state.failures = current.failures.filter { wanted.contains($0.key) }
        document.replace(with: state)
        forgetUnwanted()
        scheduleChanges.send()
    }
}
