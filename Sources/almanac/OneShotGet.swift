import AlmanacWire
import AlmanacModels
import AlmanacViews

/// The one-shot fast path: `almanac get weather|podcasts` with the options people script
/// (`--location`, `--podcast`/`--feed`, `--units`, `--json`, `--format`, `--address`, each as
/// `--name value` or `--name=value`) is read here, without building ArgumentParser's command
/// tree, which costs more than the rest of a one-shot run (reflection over every command and
/// the runtime's protocol-conformance scans; docs/performance.md). Anything else — help, an
/// unknown option, a value that looks like an option, a combination ArgumentParser would
/// refuse — returns `nil`, and ArgumentParser reads the whole command line as before, so
/// its output and errors are unchanged. `ALMANAC_NO_FAST_PATH=1` turns the fast path off
/// (the tests compare both).
struct OneShotGet {
    let request: GetRequest

    init?(_ arguments: ArraySlice<String>) {
        guard arguments.count >= 2, arguments.first == "get",
              let document = DocumentName(rawValue: arguments[arguments.startIndex + 1]) else { return nil }
        var request = GetRequest(document: document)
        var format: String?
        var rest = arguments.dropFirst(2)
        while let argument = rest.popFirst() {
            if argument == "--json" { guard !request.json else { return nil }; request.json = true; continue }
            let (name, inline) = Self.split(argument)
            guard let value = inline ?? rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") || inline != nil else { return nil }
            switch name {
            case "--location" where request.location == nil && document == .weather: request.location = value
            case "--podcast" where request.podcast == nil && document == .podcasts,
                 "--feed" where request.podcast == nil && document == .podcasts: request.podcast = value
            case "--units" where request.units == nil:
                guard let units = Units(rawValue: value) else { return nil }
                request.units = units
            case "--format" where format == nil: format = value
            case "--address" where request.address == nil: request.address = value
            default: return nil
            }
        }
        if let format {
            guard !request.json, let template = try? Template(format),
                  template.unknownFields(among: DocumentFields.names(for: document)).isEmpty else { return nil }
            request.template = template
        }
        self.request = request
    }

    /// `--name=value` → (`--name`, `value`); anything else → (itself, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
