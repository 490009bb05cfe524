internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Appends arguments to an outgoing message.
///
/// The writer checks everything libdbus would abort on before it reaches libdbus: every value
/// written inside a container must match the container's declared type, containers must be
/// complete when closed, strings must not contain NUL, nesting and sizes must stay within the
/// specification's limits. A failed check throws `BusError` (code `.invalidValue`) and the
/// message is discarded.
///
/// It also keeps the exact marshalled offset, so arrays over 64 MiB and bodies over 128 MiB
/// are refused here rather than by the peer.
public struct MessageWriter: ~Copyable {
    /// The container being written and the part of `expected` that constrains it.
    struct Level {
        enum Kind { case body, array, structure, dictionaryEntry, variant }
        var kind: Kind
        /// Whether `start..<end` constrains what may be written (false for the body and for
        /// structures opened directly in it, whose signature is whatever gets written).
        var constrained: Bool
        /// How many values this container holds so far (an empty structure is invalid).
        var count = 0
        /// Arrays and structures open since the enclosing signature began (a variant starts anew).
        var arrayDepth = 0
        var structDepth = 0
        /// Range of `expected` holding this container's content signature.
        var start: Int
        var end: Int
        var position: Int
        /// Offset at which an array's elements begin, for the array length limit.
        var arrayStart: Int
    }

    static let maximumDepth = 64
    static let maximumArrayLength = 67_108_864
    static let maximumMessageLength = 134_217_728
    /// dbus-daemon's default limit on descriptors in one message; a message with more makes
    /// the bus disconnect the sender.
    static let maximumUnixFDs = 16
    static let unusable = BusError.invalid("This message writer failed earlier; the message cannot be sent.")
    static let signatureTooLong = BusError.invalid("The message's signature would be longer than 255 bytes, the D-Bus limit.")

    let message: OpaquePointer
    /// One libdbus iterator per open container, the body's first. Room for a few to start
    /// with (a small allocation: most messages nest three deep at most), moved to a larger
    /// block when a message nests deeper (libdbus's iterators hold no pointers to each other).
    private(set) var iterators: UnsafeMutablePointer<DBusMessageIter>
    private var iteratorCapacity = 4
    var levels: [Level]
    /// Signature bytes that constrain open containers; levels hold ranges into it.
    var expected: [UInt8] = []
    /// The marshalled body length so far, with alignment padding.
    var offset = 0
    /// Bytes of signature written where nothing constrains it (the body's own signature).
    var freeSignatureLength = 0
    /// Unix fds in the message so far.
    var unixFDCount = 0
    /// The marshalled length of what has been written so far, alignment included: what the
    /// body will take on the wire.
    public var byteCount: Int { offset }
    /// Set by any failure: from then on every write throws and the message is never sent,
    /// even if the caller caught the error (`try?`) and went on writing.
    private(set) var failed = false

    init(appendingTo message: OpaquePointer) {
        self.message = message
        iterators = .allocate(capacity: iteratorCapacity)
        levels = [Level(kind: .body, constrained: false, start: 0, end: 0, position: 0, arrayStart: 0)]
        levels.reserveCapacity(8)
        expected.reserveCapacity(16)
        dbus_message_iter_init_append(message, iterators)
    }

    deinit {
        // A writer abandoned half-way (a thrown error) must not leave libdbus with open
        // containers, or unreferencing the message trips libdbus's own checks.
        var depth = levels.count - 1
        while depth > 0 {
            dbus_message_iter_abandon_container(iterators + depth - 1, iterators + depth)
            depth -= 1
        }
        iterators.deallocate()
    }

    var current: UnsafeMutablePointer<DBusMessageIter> { iterators + (levels.count - 1) }

    /// The iterator for a container about to be opened in the current one (its parent is
    /// the one just before it), making room for it first.
    mutating func makeChildIterator() -> UnsafeMutablePointer<DBusMessageIter> {
        let index = levels.count
        if index >= iteratorCapacity {
            let capacity = Self.maximumDepth + 1
            let larger = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: capacity)
            larger.initialize(from: iterators, count: index)
            iterators.deallocate()
            iterators = larger
            iteratorCapacity = capacity
        }
        return iterators + index
    }

    // MARK: Checking

    /// Runs one public operation: refused once the writer has failed, and any error it
    /// throws makes the writer fail for good.
    @inline(__always)
    mutating func failStop(_ body: (inout MessageWriter) throws -> Void) throws {
        guard !failed else { throw Self.unusable }
        do {
            try body(&self)
        } catch {
            failed = true
            throw error
        }
    }

    /// Throws once the writer has failed (used before closing a container).
    func checkUsable() throws {
        if failed { throw Self.unusable }
    }

    mutating func align(_ boundary: Int) {
        offset = (offset + boundary - 1) & ~(boundary - 1)
    }

    /// Checks that a value of type code `code` may stand here and moves past it.
    @inline(__always)
    mutating func expect(_ code: UInt8) throws {
        let top = levels.count - 1
        levels[top].count += 1
        guard levels[top].constrained else {
            freeSignatureLength += 1
            guard freeSignatureLength <= SignatureParser.maximumLength else { throw Self.signatureTooLong }
            return
        }
        let position = levels[top].position
        guard position < levels[top].end, expected[position] == code else {
            throw mismatch(writing: String(Unicode.Scalar(code)))
        }
        levels[top].position = position + 1
        if levels[top].kind == .array, levels[top].position == levels[top].end {
            levels[top].position = levels[top].start
        }
    }

    func mismatch(writing what: String) -> BusError {
        let level = levels[levels.count - 1]
        let wanted = level.position < level.end
            ? String(decoding: expected[level.position..<level.end], as: UTF8.self)
            : "nothing more"
        return .invalid("Cannot write '\(what)' here: the container expects \(wanted.isEmpty ? "nothing more" : "'\(wanted)'").")
    }

    /// The end of the complete type that starts at `index` in `expected`.
    func endOfCompleteType(at index: Int) -> Int {
        var i = index
        while expected[i] == UInt8(ascii: "a") { i += 1 }
        let open = expected[i]
        guard open == UInt8(ascii: "(") || open == UInt8(ascii: "{") else { return i + 1 }
        var depth = 0
        repeat {
            let c = expected[i]
            if c == UInt8(ascii: "(") || c == UInt8(ascii: "{") { depth += 1 }
            if c == UInt8(ascii: ")") || c == UInt8(ascii: "}") { depth -= 1 }
            i += 1
        } while depth > 0
        return i
    }

    func checkMemory(_ ok: dbus_bool_t) throws {
        guard ok != 0 else { throw BusError.noMemory }
    }

    // MARK: Basic values

    /// Writes a byte (`y`).
    public mutating func write(_ value: UInt8) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "y"))
            $0.offset += 1
            try $0.checkMemory(cdbus_append_byte($0.current, value))
        }
    }

    /// Writes a boolean (`b`).
    public mutating func write(_ value: Bool) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "b"))
            $0.align(4); $0.offset += 4
            try $0.checkMemory(cdbus_append_u32($0.current, DBUS_TYPE_BOOLEAN, value ? 1 : 0))
        }
    }

    /// Writes an `n`.
    public mutating func write(_ value: Int16) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "n"))
            $0.align(2); $0.offset += 2
            try $0.checkMemory(cdbus_append_u16($0.current, DBUS_TYPE_INT16, UInt16(bitPattern: value)))
        }
    }

    /// Writes a `q`.
    public mutating func write(_ value: UInt16) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "q"))
            $0.align(2); $0.offset += 2
            try $0.checkMemory(cdbus_append_u16($0.current, DBUS_TYPE_UINT16, value))
        }
    }

    /// Writes an `i`.
    public mutating func write(_ value: Int32) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "i"))
            $0.align(4); $0.offset += 4
            try $0.checkMemory(cdbus_append_u32($0.current, DBUS_TYPE_INT32, UInt32(bitPattern: value)))
        }
    }

    /// Writes a `u`.
    public mutating func write(_ value: UInt32) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "u"))
            $0.align(4); $0.offset += 4
            try $0.checkMemory(cdbus_append_u32($0.current, DBUS_TYPE_UINT32, value))
        }
    }

    /// Writes an `x`.
    public mutating func write(_ value: Int64) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "x"))
            $0.align(8); $0.offset += 8
            try $0.checkMemory(cdbus_append_u64($0.current, DBUS_TYPE_INT64, UInt64(bitPattern: value)))
        }
    }

    /// Writes a `t`.
    public mutating func write(_ value: UInt64) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "t"))
            $0.align(8); $0.offset += 8
            try $0.checkMemory(cdbus_append_u64($0.current, DBUS_TYPE_UINT64, value))
        }
    }

    /// Writes a `d`.
    public mutating func write(_ value: Double) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "d"))
            $0.align(8); $0.offset += 8
            try $0.checkMemory(cdbus_append_double($0.current, value))
        }
    }

    /// Writes a string (`s`). Strings containing NUL are refused: D-Bus cannot carry them.
    public mutating func write(_ value: String) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "s"))
            try $0.writeText(value, type: DBUS_TYPE_STRING, lengthSize: 4)
        }
    }

    /// Writes an object path (`o`).
    public mutating func write(_ value: ObjectPath) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "o"))
            try $0.writeText(value.rawValue, type: DBUS_TYPE_OBJECT_PATH, lengthSize: 4)
        }
    }

    /// Writes a signature (`g`).
    public mutating func write(_ value: Signature) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "g"))
            try $0.writeText(value.rawValue, type: DBUS_TYPE_SIGNATURE, lengthSize: 1)
        }
    }

    /// Writes a Unix file descriptor (`h`); libdbus sends a duplicate of it.
    public mutating func write(_ value: UnixFD) throws {
        try failStop {
            try $0.expect(UInt8(ascii: "h"))
            $0.unixFDCount += 1
            guard $0.unixFDCount <= Self.maximumUnixFDs else {
                throw BusError.invalid("A message can carry at most \(Self.maximumUnixFDs) file descriptors (the bus's limit).")
            }
            $0.align(4); $0.offset += 4
            try $0.checkMemory(cdbus_append_u32($0.current, DBUS_TYPE_UNIX_FD, UInt32(bitPattern: value.fileDescriptor)))
        }
    }

    private mutating func writeText(_ value: String, type: Int32, lengthSize: Int) throws {
        let count = value.utf8.count
        let iterator = current
        let ok = try value.withCString { text -> dbus_bool_t in
            // Swift strings are valid UTF-8 already; NUL is the one thing D-Bus strings cannot hold.
            guard strlen(text) == count else {
                throw BusError.invalid("Strings sent over D-Bus cannot contain the NUL character (U+0000).")
            }
            return cdbus_append_string(iterator, type, text)
        }
        align(lengthSize)
        offset += lengthSize + count + 1
        try checkMemory(ok)
    }
}
