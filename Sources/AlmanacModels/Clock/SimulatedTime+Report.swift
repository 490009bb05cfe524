public import FoundationEssentials

extension SimulatedTime {
    /// What almanacd writes beside the clock's file (`reportPath`) whenever it changes, one
    /// line of five fields: "NOW NEXT SLEEPS BUSY LATE" — the time its clock reads, the
    /// earliest deadline a sleep waits for ("-": none), how many sleep, how much work is under
    /// way (refresh schedulers not at rest, downloads' transfers), and how many sleeps began
    /// after their deadline. The daemon has caught up with a move once NOW is the file's time
    /// and BUSY is 0; LATE stays 0 while the test waits for that before moving on.
    public struct Report: Sendable, Hashable {
        public var now: Date
        public var nextDeadline: Date?
        public var sleepers: Int
        public var busy: Int
        public var late: Int

        public init(now: Date, nextDeadline: Date?, sleepers: Int, busy: Int, late: Int) {
            self.now = now
            self.nextDeadline = nextDeadline
            self.sleepers = sleepers
            self.busy = busy
            self.late = late
        }

        /// The line as written, with its new line.
        public var line: String {
            "\(now.timeIntervalSince1970) \(nextDeadline.map { "\($0.timeIntervalSince1970)" } ?? "-") \(sleepers) \(busy) \(late)\n"
        }

        /// The report `text` holds (`nil`: not one).
        public init?(_ text: String) {
            let parts = text.split(whereSeparator: \.isWhitespace)
            guard parts.count == 5, let now = Double(parts[0]), let sleepers = Int(parts[2]), let busy = Int(parts[3]),
                  let late = Int(parts[4]) else { return nil }
            let next = parts[1] == "-" ? nil : Double(parts[1])
            guard parts[1] == "-" || next != nil else { return nil }
            self.init(now: Date(timeIntervalSince1970: now), nextDeadline: next.map { Date(timeIntervalSince1970: $0) },
                      sleepers: sleepers, busy: busy, late: late)
        }
    }
}
