/// A title pattern compiled to a Thompson automaton (Ken Thompson, 1968; RE2's and Go's
/// `regexp` way): a list of steps, each a character test, a position test, a fork or a
/// jump. `matches` follows every way through the steps at once, one title character at a
/// time, never going back: each step is visited at most once per character, so a match
/// takes at most (title length + 1) × (number of steps) visits, whatever the pattern.
struct TitlePatternProgram: Sendable {
    enum Step: Sendable {
        /// The character, lowercased (`TitleText.lowercased`).
        case literal(Unicode.Scalar)
        /// A character of `sets[index]`.
        case set(Int)
        case assertion(TitlePatternAssertion)
        /// Go on at both.
        case fork(Int, Int)
        case jump(Int)
        case match
    }

    private(set) var steps: [Step] = []
    /// The pattern's sets, each once (a repetition's copies share theirs).
    private(set) var sets: [TitlePatternSet] = []
    private var setIndex: [TitlePatternSet: Int] = [:]
    private let limit: Int
    /// Parts compiled so far: bounded too, as a repetition of what takes no step
    /// (`((?:){1000}){1000}`) would be compiled a million times without adding one.
    private var parts = 0

    /// Compiles `node`; `TitlePatternError` when it takes more than `limit` steps (counted
    /// repetitions are written out: `a{500}` is 500 steps).
    init(_ node: TitlePatternNode, limit: Int) throws(TitlePatternError) {
        self.limit = limit
        try emit(node)
        steps.append(.match)
    }

    // MARK: Compiling

    private mutating func append(_ step: Step) -> Int {
        steps.append(step)
        return steps.count - 1
    }

    private mutating func emit(_ node: TitlePatternNode) throws(TitlePatternError) {
        // Checked before each part, so a pattern far over the limit stops soon after passing it.
        parts += 1
        guard steps.count <= limit, parts <= 10 * limit else {
            throw .unsupported("more than \(limit) steps once its counted repetitions ({m,n}) are written out", instead: "give smaller counts or a shorter pattern")
        }
        switch node {
        case .literal(let scalar):
            _ = append(.literal(TitleText.lowercased(scalar)))
        case .set(let set):
            let index = setIndex[set] ?? sets.count
            if index == sets.count {
                sets.append(set)
                setIndex[set] = index
            }
            _ = append(.set(index))
        case .assertion(let assertion):
            _ = append(.assertion(assertion))
        case .sequence(let items):
            for item in items { try emit(item) }
        case .choice(let branches):
            var ends: [Int] = []
            for branch in branches.dropLast() {
                let fork = append(.fork(0, 0))
                try emit(branch)
                ends.append(append(.jump(0)))
                steps[fork] = .fork(fork + 1, steps.count)
            }
            if let last = branches.last { try emit(last) }
            for end in ends { steps[end] = .jump(steps.count) }
        case .repetition(let body, let minimum, let maximum):
            for _ in 0..<minimum { try emit(body) }
            if let maximum {
                // Each optional copy may be the last: a fork to the end before each.
                var forks: [Int] = []
                for _ in minimum..<maximum {
                    forks.append(append(.fork(0, 0)))
                    try emit(body)
                }
                for fork in forks { steps[fork] = .fork(fork + 1, steps.count) }
            } else {
                let fork = append(.fork(0, 0))
                try emit(body)
                _ = append(.jump(fork))
                steps[fork] = .fork(fork + 1, steps.count)
            }
        }
    }

    // MARK: Matching

    /// Whether the pattern matches anywhere in `text`.
    func matches(_ text: TitleText) -> Bool {
        var run = Run(count: steps.count)
        let characters = text.characters
        // Which sets each character belongs to, worked out once rather than at every step.
        let members = characters.flatMap { character in sets.map { $0.contains(character) } }
        var position = 0
        while true {
            // A match may begin at any position: the first step joins the threads there.
            if add(0, at: position, of: text, toNext: false, &run) { return true }
            guard position < characters.count else { return false }
            let character = characters[position]
            run.next.removeAll(keepingCapacity: true)
            for index in run.current {
                let taken: Bool = switch steps[index] {
                case .literal(let scalar): character.lower == scalar
                case .set(let set): members[position * sets.count + set]
                default: false
                }
                if taken, add(index + 1, at: position + 1, of: text, toNext: true, &run) { return true }
            }
            swap(&run.current, &run.next)
            position += 1
        }
    }

    /// The threads of one match: the steps waiting for the current character and the next,
    /// and when each step was last reached (so none is followed twice at one position).
    private struct Run {
        var current: [Int] = []
        var next: [Int] = []
        var reached: [Int]
        var pending: [Int] = []

        init(count: Int) {
            reached = Array(repeating: -1, count: count)
            current.reserveCapacity(count)
            next.reserveCapacity(count)
        }
    }

    /// Follows forks, jumps and position tests from `start` at `position`, adding the
    /// character tests it reaches to the run's current or next threads; `true` as soon as it
    /// reaches the match.
    @inline(__always) private func add(_ start: Int, at position: Int, of text: borrowing TitleText, toNext: Bool, _ run: inout Run) -> Bool {
        run.pending.append(start)
        while let index = run.pending.popLast() {
            guard run.reached[index] != position else { continue }
            run.reached[index] = position
            switch steps[index] {
            case .match:
                run.pending.removeAll(keepingCapacity: true)
                return true
            case .jump(let target):
                run.pending.append(target)
            case .fork(let first, let second):
                run.pending.append(second)
                run.pending.append(first)
            case .assertion(let assertion):
                if Self.holds(assertion, at: position, of: text) { run.pending.append(index + 1) }
            case .literal, .set:
                if toNext { run.next.append(index) } else { run.current.append(index) }
            }
        }
        return false
    }

    private static func holds(_ assertion: TitlePatternAssertion, at position: Int, of text: TitleText) -> Bool {
        switch assertion {
        case .start: position == 0
        case .end: position == text.characters.count && !text.cut
        case .wordBoundary: text.isWord(at: position - 1) != text.isWord(at: position)
        case .notWordBoundary: text.isWord(at: position - 1) == text.isWord(at: position)
        }
    }
}
