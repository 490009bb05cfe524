/// `file://` URLs and the paths they name, as media players write them (`xesam:url`).
public enum FileURL {
    /// The absolute path a `file://` URL names, percent-decoded; `nil` for anything else
    /// (another scheme, another host, a relative path, bytes that are not UTF-8).
    public static func path(of url: String) -> String? {
        var rest: Substring
        if url.hasPrefix("file:///") {
            rest = url.dropFirst(7)
        } else if url.hasPrefix("file://localhost/") {
            rest = url.dropFirst(16)
        } else {
            return nil
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        var bytes: [UInt8] = []
        var utf8 = rest.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0), let path = String(validating: bytes, as: UTF8.self) else { return nil }
        return path
    }

    /// The `file://` URL of an absolute path, with everything but unreserved characters and `/` percent-encoded.
    public static func url(of path: String) -> String {
        var url = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                url.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                url.unicodeScalars.append("%")
                url.unicodeScalars.append(digits[Int(byte >> 4)])
                url.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return url
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
