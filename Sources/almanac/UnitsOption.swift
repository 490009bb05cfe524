import AlmanacModels
import ArgumentParser

/// `--units metric|imperial`: how to show the weather this time (the saved setting stays).
struct UnitsOption: ParsableArguments {
    @Option(help: ArgumentHelp("Show in these units this time: metric or imperial (default: the daemon's setting).", valueName: "units"))
    var units: UnitsArgument?

    func apply(to state: inout WeatherState) {
        if let units { state.units = units.units }
    }
}

/// `metric` or `imperial` on the command line.
struct UnitsArgument: ExpressibleByArgument {
    let units: Units
    init?(argument: String) {
        guard let units = Units(rawValue: argument) else { return nil }
        self.units = units
    }
    static var allValueStrings: [String] { ["metric", "imperial"] }
}
