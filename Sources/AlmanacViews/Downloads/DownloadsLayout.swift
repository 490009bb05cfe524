// How downloads are laid out within a terminal's width: the list, and the bars
// `almanac episode download` redraws.

extension DownloadProgressViewData {
    /// "ep-1  [=====>     ]  45%  21.6 MB of 48.0 MB  1.2 MB/s  0:22 left" within `width`,
    /// the episode padded to `episodeWidth` so that the bars of several jobs line up. The bar
    /// takes what the numbers leave (10 to 30 columns); when even a short bar does not fit,
    /// the rate goes, then the time left, then the bytes. A finished or waiting job says so
    /// where the bar would be.
    public func barLine(episodeWidth: Int, width: Int) -> StyledLine {
        let name = StyledLine(padded(episode, to: min(episodeWidth, max(8, width / 3))))
        let tail: [LineField]
        switch state {
        case "completed": tail = [.kept(StyledLine("done", .bold)), .optional(StyledLine(bytes), priority: 10)]
        case "failed": tail = [.kept(StyledLine("failed: \(error)", .alert))]
        case "cancelled": tail = [.kept(StyledLine("cancelled", .alert))]
        // A job held back says why it waits ("waiting: metered connection").
        case "queued": tail = [.kept(StyledLine(error.isEmpty ? "queued" : "queued, \(error)", .dim))]
        default:
            // The numbers in columns wide enough for their largest values, so they do not jump.
            let numbers = fitLine([
                .kept(StyledLine(padded(percent, to: 4, alignment: .right))),
                .optional(StyledLine(padded(bytes, to: 20, alignment: .right)), priority: 10),
                .optional(StyledLine(padded(rate, to: 10, alignment: .right)), priority: 30),
                .optional(StyledLine(padded(eta, to: 12, alignment: .right)), priority: 20),
            ], width: max(4, width - name.width - 4 - 10))
            let bar = StyledLine(self.bar(width: min(30, max(4, width - name.width - 4 - numbers.width))))
            return (name + "  " + bar + "  " + numbers).trimmingTrailingSpaces().truncated(to: width)
        }
        return fitLine([.kept(name)] + tail, width: width).trimmingTrailingSpaces()
    }

    /// "3  downloading  45%  21.6 MB of 48.0 MB  1.2 MB/s  0:22 left  ep-1" within `width`: a
    /// line a log or a pipe gets at each step.
    public func line(width: Int) -> StyledLine {
        var fields: [LineField] = [.kept(StyledLine(String(job))), .kept(StyledLine(state))]
        if state == "completed" {
            fields += [.optional(StyledLine(bytes), priority: 10), LineField([StyledLine(file), StyledLine(truncated(file, to: 40))], priority: 20)]
        } else {
            fields += [
                .kept(StyledLine(percent)),
                .optional(StyledLine(bytes), priority: 20),
                .optional(StyledLine(rate), priority: 10),
                .optional(StyledLine(eta), priority: 15),
                .kept(StyledLine(episode)),
            ]
            if !error.isEmpty { fields.append(.kept(StyledLine(error, .alert))) }
        }
        return fitLine(fields.filter { !$0.forms[0].isEmpty }, width: width)
    }
}

extension Table {
    /// `almanac downloads`: job, state, progress, bytes, episode and (finished) file or error.
    /// Too wide, the file or error is cut and then goes, then the bytes.
    public static func downloads(_ jobs: [DownloadProgressViewData]) -> Table {
        Table(
            [
                TableColumn("Job", alignment: .right),
                TableColumn("State"),
                TableColumn("Done", alignment: .right),
                TableColumn("Bytes", alignment: .right, drop: 20),
                TableColumn("Episode", shrink: (minimum: 12, priority: 30)),
                TableColumn("File or error", shrink: (minimum: 16, priority: 5), drop: 10),
            ],
            rows: jobs.map { job in
                [
                    StyledLine(String(job.job)), StyledLine(job.state), StyledLine(job.percent), StyledLine(job.bytes),
                    StyledLine(job.episode), job.error.isEmpty ? StyledLine(job.file, .dim) : StyledLine(job.error, .alert),
                ]
            }
        )
    }
}
