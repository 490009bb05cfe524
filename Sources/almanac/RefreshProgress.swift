/// "Refreshing 37/200 feeds…" on a terminal, redrawn in place and gone at the end; nothing
/// when standard output is not a terminal.
/// Not `Sendable`: only the task that gathers the results has it.
final class RefreshProgress {
    private let total: Int
    private let terminal: Terminal
    private var done = 0
    private var failed = 0

    init(total: Int, terminal: Terminal) {
        self.total = total
        self.terminal = terminal
        draw()
    }

    func finished(one succeeded: Bool) {
        done += 1
        if !succeeded { failed += 1 }
        draw()
    }

    func clear() {
        guard terminal.capable else { return }
        Terminal.write(1, "\r\u{1B}[K")
    }

    private func draw() {
        guard terminal.capable, total > 0 else { return }
        let failures = failed == 0 ? "" : ", \(failed) failed"
        Terminal.write(1, "\r\u{1B}[KRefreshing \(done)/\(total) feeds\(failures)…")
    }
}
