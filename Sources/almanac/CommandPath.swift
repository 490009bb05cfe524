import ArgumentParser

/// Which command a command line names ("almanac podcasts import"), read from the arguments
/// by the command tree's names, for advice such as "see `almanac podcasts --help`" and for
/// "did you mean" when a word is not a command.
enum CommandPath {
    /// The command this run's arguments name.
    static let current: String = path(Array(CommandLine.arguments.dropFirst())).names.joined(separator: " ")

    /// The commands `arguments` walk through, from the root.
    static func path(_ arguments: [String]) -> (names: [String], last: any ParsableCommand.Type) {
        var names = [Almanac._commandName]
        var command: any ParsableCommand.Type = Almanac.self
        for argument in arguments {
            if argument == "--" { break }
            if argument.hasPrefix("-") { continue }
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            names.append(argument)
            command = next
        }
        return (names, command)
    }

    /// The word that stands where a subcommand must ("umbrella" in `almanac umbrella X --json`)
    /// and is none: the first word after the commands `arguments` walk through, when the
    /// last of them has subcommands and no default one to take the word. `nil` otherwise.
    static func unknownCommand(in arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String? {
        let (names, last) = path(arguments)
        guard !last.configuration.subcommands.isEmpty, last.configuration.defaultSubcommand == nil else { return nil }
        var seen = names.dropFirst()
        for argument in arguments {
            if argument == "--" { return nil }
            if argument.hasPrefix("-") { continue }
            if seen.first == argument {
                seen = seen.dropFirst()
                continue
            }
            return argument
        }
        return nil
    }

    /// The subcommand of the command this run names closest to `word`, when one is close
    /// enough to be a typing slip (an edit or two, a swap of neighbours counting as one).
    static func suggestion(for word: String, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String? {
        let names = path(arguments).last.configuration.subcommands.map { $0._commandName }
        let scored = names.map { ($0, editDistance(word.lowercased(), $0)) }
        let limit = word.count <= 4 ? 1 : 2
        return scored.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbouring characters each cost one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
