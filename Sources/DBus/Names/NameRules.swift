// The naming rules of the D-Bus specification ("Valid names", "Valid object paths"),
// checked on UTF-8 bytes so that nothing invalid ever reaches libdbus, which aborts the
// process on an invalid name.

enum NameRules {
    static let maximumNameLength = 255

    @inline(__always) static func isLetterOrUnderscore(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
    }

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    @inline(__always) static func isElementCharacter(_ c: UInt8) -> Bool {
        isLetterOrUnderscore(c) || isDigit(c)
    }

    /// `/`, or `/` followed by non-empty `[A-Za-z0-9_]` elements separated by single `/`.
    static func isValidObjectPath(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard let first = bytes.first, first == 0x2F else { return false }
            if bytes.count == 1 { return true }
            var previousWasSlash = true
            for c in bytes.dropFirst() {
                if c == 0x2F {
                    if previousWasSlash { return false }
                    previousWasSlash = true
                } else if isElementCharacter(c) {
                    previousWasSlash = false
                } else {
                    return false
                }
            }
            return !previousWasSlash
        }
    }

    /// Two or more `[A-Za-z_][A-Za-z0-9_]*` elements separated by `.`, at most 255 bytes.
    /// Interface names and error names follow this rule.
    static func isValidInterfaceName(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= maximumNameLength else { return false }
            var elements = 1
            var atElementStart = true
            for c in bytes {
                if c == 0x2E {
                    if atElementStart { return false }
                    elements += 1
                    atElementStart = true
                } else if atElementStart {
                    guard isLetterOrUnderscore(c) else { return false }
                    atElementStart = false
                } else if !isElementCharacter(c) {
                    return false
                }
            }
            return !atElementStart && elements >= 2
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`, 1 to 255 bytes.
    static func isValidMemberName(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard let first = bytes.first, bytes.count <= maximumNameLength, isLetterOrUnderscore(first)
            else { return false }
            return bytes.allSatisfy(isElementCharacter)
        }
    }

    /// A unique name (`:` then two or more `[A-Za-z0-9_-]+` elements) or a well-known name
    /// (two or more `[A-Za-z_-][A-Za-z0-9_-]*` elements), at most 255 bytes.
    static func isValidBusName(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= maximumNameLength else { return false }
            let unique = bytes[0] == 0x3A
            var elements = 1
            var atElementStart = true
            for c in unique ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes {
                let isHyphen = c == 0x2D
                if c == 0x2E {
                    if atElementStart { return false }
                    elements += 1
                    atElementStart = true
                } else if atElementStart {
                    guard isLetterOrUnderscore(c) || isHyphen || (unique && isDigit(c)) else { return false }
                    atElementStart = false
                } else if !(isElementCharacter(c) || isHyphen) {
                    return false
                }
            }
            return !atElementStart && elements >= 2
        }
    }
}
