extension RunningDaemon {
    /// The daemon's log read back, line by line (`LogLine`; lines that do not read are left out).
    public var logLines: [LogLine] { Self.logLines(on: bus) }

    /// The log of the daemons run on `bus`, line by line.
    public static func logLines(on bus: PrivateBus) -> [LogLine] {
        log(on: bus).split(separator: "\n").compactMap(LogLine.init)
    }

    /// The lines whose message is `message` and whose metadata hold each of `metadata`.
    public func logLines(_ message: String, with metadata: [String: String] = [:]) -> [LogLine] {
        logLines.filter { line in line.message == message && metadata.allSatisfy { line.metadata[$0.key] == $0.value } }
    }
}
