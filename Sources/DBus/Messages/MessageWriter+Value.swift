extension MessageWriter {
    /// Writes `value` as its own type (a `.variant` is written as a variant).
    ///
    /// Arrays and dictionaries whose elements do not match their declared type are refused
    /// by the writer's container checks.
    public mutating func write(_ value: Value) throws {
        switch value {
        case .byte(let v): try write(v)
        case .boolean(let v): try write(v)
        case .int16(let v): try write(v)
        case .uint16(let v): try write(v)
        case .int32(let v): try write(v)
        case .uint32(let v): try write(v)
        case .int64(let v): try write(v)
        case .uint64(let v): try write(v)
        case .double(let v): try write(v)
        case .string(let v): try write(v)
        case .objectPath(let v): try write(v)
        case .signature(let v): try write(v)
        case .unixFD(let v): try write(v)
        case .array(let element, let elements):
            try writeArray(of: element) { writer in
                for element in elements { try writer.write(element) }
            }
        case .dictionary(let key, let valueType, let entries):
            try writeDictionary(key: key, value: valueType) { writer in
                for entry in entries {
                    try writer.writeDictionaryEntry { writer in
                        try writer.write(entry.key)
                        try writer.write(entry.value)
                    }
                }
            }
        case .structure(let fields):
            try writeStructure { writer in
                for field in fields { try writer.write(field) }
            }
        case .variant(let inner):
            try writeVariant(inner)
        }
    }

    /// Writes `value` inside a variant (`v`).
    public mutating func writeVariant(_ value: Value) throws {
        try writeVariant(of: value.type) { try $0.write(value) }
    }

    /// Writes `a{sv}`, the shape of most D-Bus property and change maps. The same bytes as
    /// `dictionary.encode(to:)`, without the generic path (a hot one: every change signal).
    public mutating func write(_ dictionary: [String: Value]) throws {
        try writeDictionary(key: .string, value: .variant) { writer in
            for (key, value) in dictionary {
                try writer.writeDictionaryEntry { writer in
                    try writer.write(key)
                    try writer.writeVariant(value)
                }
            }
        }
    }

    /// Writes each value in turn, as its own type.
    public mutating func write(_ values: [Value]) throws {
        for value in values { try write(value) }
    }

    /// Writes each argument in turn.
    public mutating func write<each A: BusEncodable>(arguments: repeat each A) throws {
        repeat try (each arguments).encode(to: &self)
    }
}
