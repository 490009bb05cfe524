extension Value {
    /// Whether this value is of `type`, told without making its `type` (a `ValueType` with
    /// a payload is a heap box): what the encoder checks each item of an array by.
    func isOf(_ type: ValueType) -> Bool {
        switch (self, type) {
        case (.byte, .byte), (.boolean, .boolean), (.int16, .int16), (.uint16, .uint16), (.int32, .int32), (.uint32, .uint32),
             (.int64, .int64), (.uint64, .uint64), (.double, .double), (.string, .string), (.objectPath, .objectPath),
             (.signature, .signature), (.unixFD, .unixFD), (.variant, .variant):
            true
        case (.array(let element, _), .array(let expected)): element == expected
        case (.dictionary(let key, let value, _), .dictionary(let expectedKey, let expectedValue)): key == expectedKey && value == expectedValue
        case (.structure(let fields), .structure(let types)): fields.count == types.count && zip(fields, types).allSatisfy { $0.isOf($1) }
        default: false
        }
    }
}
