import AlmanacBus
import DBus

/// GetState calls per second from an in-process Swift client (AlmanacClient over the DBus
/// module), each reply decoded into values as the CLI decodes it.
struct GetStateBenchmark {
    let address: String
    let seconds: Double

    func run() async throws {
        let client = AlmanacClient(connection: try await Connection.connect(to: address))
        _ = try await client.state(of: .weather)  // connection set-up stays out of the figure
        var calls = 0
        var fields = 0
        let start = AlmanacBench.now()
        let stop = start + seconds
        while AlmanacBench.now() < stop {
            let (_, state) = try await client.state(of: .weather)
            fields = state.count
            calls += 1
        }
        let elapsed = AlmanacBench.now() - start
        await client.connection.close()
        print("calls \(calls) seconds \(elapsed) rate \(Double(calls) / elapsed) fields \(fields)")
    }
}
