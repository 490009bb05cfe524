import AlmanacWire
import AlmanacModels
import AlmanacViews
import DBus

/// Draws the progress of a few downloads: on a capable terminal, one bar per job redrawn in
/// place (the episodes padded alike, so the bars line up);
/// otherwise a line whenever a job changes state or passes another tenth; with `--json`, an
/// object per update.
struct DownloadDisplay {
    let rendering: Rendering
    let order: [ObjectPath]
    private var meters: [ObjectPath: RateMeter] = [:]
    private var drawn = 0
    private var lastReported: [ObjectPath: String] = [:]

    init(rendering: Rendering, order: [ObjectPath]) {
        self.rendering = rendering
        self.order = order
    }

    /// The job at `path` as far as its properties `fields` have been heard; `nil` for none.
    static func job(at path: ObjectPath, _ fields: [String: Value]?) -> DownloadJob? {
        (try? WireCoding.decode(DownloadProperties.self, fromFields: fields ?? [:]))?.job(at: path)
    }

    func allFinished(_ jobs: [ObjectPath: [String: Value]]) -> Bool {
        order.allSatisfy { Self.job(at: $0, jobs[$0])?.state.isFinished ?? true }
    }

    mutating func show(_ jobs: [ObjectPath: [String: Value]]) {
        var views: [(ObjectPath, DownloadProgressViewData)] = []
        for path in order {
            guard let job = Self.job(at: path, jobs[path]) else { continue }
            // The rate counts from when the transfer started: a queued job's wait is not part
            // of it (its first rate would average the whole wait), nor a finished one's end.
            if job.state == .downloading {
                meters[path, default: RateMeter()].add(job.received)
            } else {
                meters[path] = nil
            }
            views.append((path, DownloadProgressViewData(job: job, bytesPerSecond: meters[path]?.bytesPerSecond)))
        }
        if rendering.json || rendering.template != nil || !rendering.terminal.capable {
            for (path, view) in views {
                // A line when the state changes or another tenth is done (not per packet).
                let step = view.state + "/" + String((view.fraction.map { Int($0 * 10) }) ?? -1)
                guard lastReported[path] != step else { continue }
                lastReported[path] = step
                rendering.terminal.line(rendering.json ? Rendering.json(view) : rendering.downloadLine(view))
            }
            return
        }
        var text = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
        let episodeWidth = views.map { displayWidth($0.1.episode) }.max() ?? 0
        for (_, view) in views { text += "\r\u{1B}[K" + rendering.downloadBar(view, episodeWidth: episodeWidth) + "\n" }
        Terminal.write(1, text)
        drawn = views.count
    }

    mutating func finish(_ jobs: [ObjectPath: [String: Value]]) {
        guard !rendering.json, rendering.template == nil else { return }
        // Plain lines are cut to the width: why a job failed is said whole on standard error too.
        let capable = rendering.terminal.capable
        for path in order {
            guard let job = Self.job(at: path, jobs[path]) else { continue }
            switch job.state {
            case .completed: if capable { rendering.terminal.textLine("Saved \(job.file)") }
            case .failed: Terminal.error("the download of \(job.episodeID) failed: \(job.error)", hint: "try again with `almanac episode download \(job.episodeID)`", exit: 1)
            case .cancelled: Terminal.error("the download of \(job.episodeID) was cancelled", hint: "start it again with `almanac episode download \(job.episodeID)`", exit: 1)
            default: break
            }
        }
    }
}
