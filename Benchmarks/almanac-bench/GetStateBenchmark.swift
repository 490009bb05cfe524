import AlmanacWire
import DBus

/// GetState calls per second from an in-process Swift client (the DBus module, as
/// AlmanacClient calls it), each reply decoded into values as the CLI decodes it.
struct GetStateBenchmark {
    let address: String
    /// Whose weather document to ask: almanacd, or the C peer serving the same state.
    let destination: String
    let seconds: Double

    func run() async throws {
        let connection = try await Connection.connect(to: address)
        let destination = try BusName(destination)
        let path = BusContract.documentPath(.weather)
        let method = MemberName("GetState")
        func getState() async throws -> [String: Value] {
            let reply = try await connection.call(destination, path: path, interface: BusContract.documentInterface, method: method)
            return try reply.arguments(UInt64.self, [String: Value].self).1
        }
        _ = try await getState()  // connection set-up and the first call stay out of the figure
        var calls = 0
        var fields = 0
        let start = AlmanacBench.now()
        let stop = start + seconds
        while AlmanacBench.now() < stop {
            fields = try await getState().count
            calls += 1
        }
        let elapsed = AlmanacBench.now() - start
        await connection.close()
        print("calls \(calls) seconds \(elapsed) rate \(Double(calls) / elapsed) fields \(fields)")
    }
}
