import DBus

/// Answers and inputs too large for one bus message (bus-api.md, "Payloads by descriptor"):
/// the `…Descriptor` methods answer with a sealed memory file holding the classic method's
/// reply (`Message.payload`), the classic methods refuse an answer over the bus's limit with
/// `LimitsExceeded` naming the limit and the method to call instead, and files come in as
/// descriptors.
enum LargeAnswers {
    /// The most bytes a passed feed file may hold. A bigger feed would make an answer
    /// larger than one D-Bus message may be even in a memory file (128 MiB, an array 64 MiB).
    static let maximumFeedFileBytes = 128 * 1024 * 1024

    /// Throws `LimitsExceeded` when a reply whose body takes `bodyLength` bytes would not fit
    /// in one message on `connection`, saying what to call `instead`. Called once the answer
    /// is written (by a handler, or a typed method's `checkingReplyLength`), so the caller
    /// hears what to do rather than the layer's refusal (which would follow anyway). `what`
    /// is made only for a reply that does not fit.
    static func check(_ bodyLength: Int, on connection: Connection?, _ what: @autoclosure () throws -> String, instead: String) throws {
        guard let connection, !connection.fitsInOneMessage(bodyLength: bodyLength) else { return }
        throw BusError(.limitsExceeded, "\(try what()) takes \(describe(bodyLength)), more than a message may carry on this bus (\(describe(connection.maximumMessageSize)), its max_message_size); \(instead).")
    }

    /// The answer of a `…Descriptor` method: the arguments `body` writes, as the classic
    /// method would reply them, in a sealed memory file. An answer too large even for that
    /// is refused with `LimitsExceeded`.
    static func payload(_ what: String, _ body: (inout MessageWriter) throws -> Void) throws -> UnixFD {
        do {
            return try Message.payload(body)
        } catch let error as BusError where error.code == .invalidValue && error.message.contains("D-Bus limit") {
            // The writer's size limits (a body of 128 MiB, an array of 64 MiB): no message can hold it.
            throw BusError(.limitsExceeded, "\(what) is larger than one D-Bus message may be even through a descriptor: \(error.message)")
        }
    }

    /// The bytes of a passed file: a regular file or memory file of at most `limit` bytes.
    static func read(_ file: UnixFD, limit: Int, _ what: String) throws -> [UInt8] {
        do {
            return try file.readAll(limit: limit)
        } catch let error as BusError where error.name == .limitsExceeded {
            throw BusError(.limitsExceeded, "\(what) can be at most \(describe(limit)): \(error.message)")
        }
    }

    static func describe(_ bytes: Int) -> String {
        let mebibytes = (Double(bytes) / 1_048_576 * 10).rounded() / 10
        return "\(bytes) bytes (\(mebibytes) MiB)"
    }
}
