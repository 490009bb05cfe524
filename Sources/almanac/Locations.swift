import ArgumentParser

/// `almanac locations add|remove|list`: the saved places, fetched whether or not anything watches them.
struct Locations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lists, adds or removes the saved places (fetched even when nothing watches them).",
        subcommands: [LocationsList.self, LocationsAdd.self, LocationsRemove.self],
        defaultSubcommand: LocationsList.self
    )
}
