import AlmanacWire
import ArgumentParser

/// Which document, and which part of it: what `get` and `watch` both take.
struct Scope: ParsableArguments {
    @ArgumentParser.Argument(help: "weather or podcasts (watch: or playing)")
    var document: DocumentArgument

    @Option(help: "For weather: the place (fetched first when nobody watches it yet).")
    var location: String?

    @Option(name: [.customLong("podcast"), .customLong("feed")], help: "For podcasts: only this podcast (its id).")
    var podcast: String?

    func validate() throws {
        if location != nil && document.name != .weather { throw ValidationError("--location goes with 'weather'.") }
        if podcast != nil && (document.name != .podcasts || document.playing) { throw ValidationError("--podcast goes with 'podcasts'.") }
    }
}
