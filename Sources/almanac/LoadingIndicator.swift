import Locking

/// "⠋ Loading…" on a capable terminal while a document loads: it appears only once loading
/// has taken `delay` (a refresh that takes no time shows nothing, so nothing flashes), then
/// turns every `interval`, and goes when loading ends. On anything else it stays away.
final class LoadingIndicator: Sendable {
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private let terminal: Terminal
    private let enabled: Bool
    private let delay: Duration
    private let interval: Duration
    /// Counts loading spells; a spinner draws only while its spell is the current one.
    private let spell = Locked((number: 0, loading: false))

    init(terminal: Terminal, enabled: Bool, delay: Duration = .milliseconds(300), interval: Duration = .milliseconds(100)) {
        self.terminal = terminal
        self.enabled = enabled && terminal.capable
        self.delay = delay
        self.interval = interval
    }

    /// The document started (`true`) or stopped (`false`) loading.
    func loading(_ loading: Bool) {
        guard enabled else { return }
        let started: Int? = spell.withLock { spell in
            guard spell.loading != loading else { return nil }
            spell.loading = loading
            spell.number += 1
            return loading ? spell.number : nil
        }
        guard let number = started else {
            if !loading { terminal.status("") }
            return
        }
        Task { [self] in
            try? await Task.sleep(for: delay)
            var frame = 0
            while draw(Self.frames[frame % Self.frames.count] + " Loading…", in: number) {
                frame += 1
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Draws `text` if spell `number` is still loading; says whether it was.
    private func draw(_ text: String, in number: Int) -> Bool {
        spell.withLock { spell in
            guard spell.number == number, spell.loading else { return false }
            terminal.status(text)
            return true
        }
    }
}
