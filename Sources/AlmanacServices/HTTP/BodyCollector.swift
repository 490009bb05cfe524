import FoundationEssentials
import Locking
import Synchronization

/// Keeps an answer's body in memory for `BoundedDownloads`, up to `limit` bytes: an answer
/// announced or found larger ends its transfer (`tooLarge`), and so does a 401 challenge.
final class BodyCollector: HTTPResponseHandler {
    /// Why the transfer was ended early.
    enum Ending: Sendable {
        case tooLarge
        /// HTTP 401 with `WWW-Authenticate`: a user name and password are wanted (or were refused).
        case challenged
    }

    private let limit: Int
    private let state = Locked<(body: Data, ending: Ending?)>((Data(), nil))

    init(limit: Int) {
        self.limit = limit
    }

    /// The body so far, and why it was ended early (`nil`: it was not).
    var collected: (Data, Ending?) { state.withLock { ($0.body, $0.ending) } }

    func received(_ head: HTTPHead) -> Bool {
        if head.status == 401 && head.headers["www-authenticate"] != nil {
            state.withLock { $0.ending = .challenged }
            return false
        }
        if let length = head.expectedLength, length > UInt64(limit) {
            state.withLock { $0.ending = .tooLarge }
            return false
        }
        // Room for the whole announced body at once: grown step by step, the last step holds
        // the old and the new buffer together, half as much again as the body.
        if let length = head.expectedLength, length > 0 { state.withLock { $0.body.reserveCapacity(Int(length)) } }
        return true
    }

    func received(_ bytes: UnsafeRawBufferPointer) -> Bool {
        state.withLock { state in
            // Appended in place: a copy of the state would share the body, and appending to a
            // shared body copies all of it, every chunk.
            guard state.body.count + bytes.count <= limit else {
                state.ending = .tooLarge
                state.body = Data()
                return false
            }
            state.body.append(contentsOf: bytes)
            return true
        }
    }
}
