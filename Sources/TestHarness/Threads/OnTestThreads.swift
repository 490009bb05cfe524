public import Testing

/// Runs each test of a suite on `TestThreads`, off Swift's global executor: every suite
/// names it (`@Suite(.onTestThreads)`), and `SuiteTraitTests` checks that none forgets.
/// Tasks the code under test starts (`Task {}`) still run on the global executor; only the
/// test's own body and its child tasks move.
public struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OnTestThreads {
    /// Each test of the suite on a thread of its own (`TestThreads`).
    public static var onTestThreads: Self { OnTestThreads() }
}

extension TimeLimitTrait.Duration {
    /// The one time limit tests have: there to end a hang, never a claim about speed. Ten
    /// minutes, so that a test on a loaded machine never reaches it (`make test-under-load`).
    public static var hang: Self { .minutes(10) }
}
