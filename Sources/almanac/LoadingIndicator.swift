/// "⠋ Loading…" on a capable terminal while a document loads: it appears only once loading
/// has taken `delay` (a refresh that takes no time shows nothing, so nothing flashes), then
/// turns every `interval`, and goes when loading ends. On anything else it stays away.
final class LoadingIndicator: Sendable {
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private let terminal: Terminal
    private let enabled: Bool
    private let delay: Duration
    private let interval: Duration

    init(terminal: Terminal, enabled: Bool, delay: Duration = .milliseconds(300), interval: Duration = .milliseconds(100)) {
        self.terminal = terminal
        self.enabled = enabled && terminal.capable
        self.delay = delay
        self.interval = interval
    }

    /// The document started (`true`) or stopped (`false`) loading.
    func loading(_ loading: Bool) {
        // The spell is the terminal's status line's (`Terminal.loadingSpell`): a frame is
        // drawn under its lock only while the spell loads, so none outlives it.
        guard enabled, let number = terminal.loadingSpell(loading) else { return }
        Task { [self] in
            try? await Task.sleep(for: delay)
            var frame = 0
            while terminal.status(Self.frames[frame % Self.frames.count] + " Loading…", inSpell: number) {
                frame += 1
                try? await Task.sleep(for: interval)
            }
        }
    }
}
