extension PlaceTimeZone {
    /// A zone from the bytes of a TZif file (RFC 8536): version 1's 32-bit data, or, from
    /// version 2 on, the 64-bit data after it and the footer's POSIX rule. `nil` for anything
    /// that is not such a file, or whose counts run past its end.
    init?(identifier: String, tzif bytes: [UInt8]) {
        var reader = TZifReader(bytes)
        guard let first = reader.header(), let v1 = reader.data(first, timeSize: 4) else { return nil }
        var data = v1
        var rule: PosixTimeZoneRule?
        if first.version >= 2 {
            guard let second = reader.header(), let v2 = reader.data(second, timeSize: 8) else { return nil }
            data = v2
            rule = reader.footer().flatMap { PosixTimeZoneRule($0) }
        }
        self.identifier = identifier
        transitions = zip(data.times, data.indices).map { Transition(at: $0, offset: data.offsets[Int($1)]) }
        initialOffset = data.offsets[0]
        self.rule = rule
    }
}

/// Reads a TZif file's parts in order, every read checked against the end.
struct TZifReader {
    struct Header {
        let version: Int
        let isUTCCount, isStandardCount, leapCount, timeCount, typeCount, characterCount: Int
    }

    struct Data {
        let times: [Int64]
        let indices: [UInt8]
        let offsets: [Int]
    }

    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func header() -> Header? {
        guard take(4) == Array("TZif".utf8), let version = take(1)?.first, take(15) != nil else { return nil }
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let count = integer(4), (0...100_000).contains(count) else { return nil }
            counts.append(Int(count))
        }
        return Header(version: version == 0 ? 1 : Int(version) - 0x30, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                      timeCount: counts[3], typeCount: counts[4], characterCount: counts[5])
    }

    /// The data block after `header`, its times `timeSize` bytes each; `nil` when a type index
    /// names no type or the block runs past the end.
    mutating func data(_ header: Header, timeSize: Int) -> Data? {
        guard header.typeCount >= 1 else { return nil }
        var times: [Int64] = []
        for _ in 0..<header.timeCount {
            guard let time = integer(timeSize) else { return nil }
            times.append(time)
        }
        guard let indices = take(header.timeCount), indices.allSatisfy({ Int($0) < header.typeCount }) else { return nil }
        var offsets: [Int] = []
        for _ in 0..<header.typeCount {
            guard let offset = integer(4), abs(offset) <= 26 * 3600, take(2) != nil else { return nil }
            offsets.append(Int(offset))
        }
        let rest = header.characterCount + header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount
        guard take(rest) != nil else { return nil }
        return Data(times: times, indices: indices, offsets: offsets)
    }

    /// The footer's POSIX TZ string, between two newlines.
    mutating func footer() -> String? {
        guard take(1) == [0x0A], let end = bytes[position...].firstIndex(of: 0x0A), end - position <= 256 else { return nil }
        return String(validating: bytes[position..<end], as: UTF8.self)
    }

    private mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - position else { return nil }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// A big-endian two's-complement integer of `size` bytes (4 or 8).
    private mutating func integer(_ size: Int) -> Int64? {
        guard let part = take(size) else { return nil }
        let raw = part.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return size == 8 ? Int64(bitPattern: raw) : Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: raw)))
    }
}
