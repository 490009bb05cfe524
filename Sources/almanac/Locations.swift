import ArgumentParser

/// `almanac locations add|remove|list|search`: the saved places, fetched whether or not anything watches them.
struct Locations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locations",
        abstract: "Lists, adds or removes the saved places (fetched even when nothing watches them), or finds places by name.",
        subcommands: [LocationsList.self, LocationsAdd.self, LocationsRemove.self, LocationsSearch.self],
        defaultSubcommand: LocationsList.self
    )
}
