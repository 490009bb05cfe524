internal import CDBus

extension MessageWriter {
    /// Writes an array whose elements `body` writes, each of type `element`.
    ///
    /// For a dictionary, pass `.dictionary(key:value:)`'s entries' shape by calling
    /// `writeDictionary` instead.
    public mutating func writeArray(of element: ValueType, _ body: (inout MessageWriter) throws -> Void) throws {
        try failStop { try $0.writeArrayUnchecked(of: element, body) }
    }

    private mutating func writeArrayUnchecked(of element: ValueType, _ body: (inout MessageWriter) throws -> Void) throws {
        var signature = ""
        element.appendSignature(to: &signature)
        try openArray(elementSignature: signature, elementType: element)
        try body(&self)
        try closeArray()
    }

    /// Writes an array of bytes (`ay`) in one step.
    public mutating func writeBytes(_ bytes: [UInt8]) throws {
        try failStop { try $0.writeBytesUnchecked(bytes) }
    }

    private mutating func writeBytesUnchecked(_ bytes: [UInt8]) throws {
        try openArray(elementSignature: "y", elementType: .byte)
        guard bytes.count <= Self.maximumArrayLength else {
            throw BusError.invalid("An array of \(bytes.count) bytes exceeds the D-Bus limit of 64 MiB.")
        }
        let ok = bytes.withUnsafeBufferPointer { buffer -> dbus_bool_t in
            var base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            return dbus_message_iter_append_fixed_array(current, DBUS_TYPE_BYTE, &base, Int32(buffer.count))
        }
        try checkMemory(ok)
        offset += bytes.count
        try closeArray()
    }

    /// Writes a dictionary (`a{KV}`) whose entries `body` writes with `writeDictionaryEntry`.
    public mutating func writeDictionary(key: ValueType, value: ValueType, _ body: (inout MessageWriter) throws -> Void) throws {
        try failStop { try $0.writeDictionaryUnchecked(key: key, value: value, body) }
    }

    private mutating func writeDictionaryUnchecked(key: ValueType, value: ValueType, _ body: (inout MessageWriter) throws -> Void) throws {
        guard key.isBasic else {
            throw BusError.invalid("A dictionary key must be a basic type, not '\(key.signature)'.")
        }
        try openArray(elementSignature: ValueType.entrySignature(key: key, value: value), elementType: nil)
        try body(&self)
        try closeArray()
    }

    /// Writes one entry of a dictionary; `body` writes the key, then the value.
    public mutating func writeDictionaryEntry(_ body: (inout MessageWriter) throws -> Void) throws {
        try failStop { try $0.writeDictionaryEntryUnchecked(body) }
    }

    private mutating func writeDictionaryEntryUnchecked(_ body: (inout MessageWriter) throws -> Void) throws {
        let top = levels.count - 1
        guard levels[top].kind == .array, expected[levels[top].position] == UInt8(ascii: "{") else {
            throw BusError.invalid("A dictionary entry can only be written inside a dictionary.")
        }
        try openGrouped(code: UInt8(ascii: "{"), kind: .dictionaryEntry, dbusType: DBUS_TYPE_DICT_ENTRY)
        try body(&self)
        try closeGrouped()
    }

    /// Writes a structure whose fields `body` writes.
    public mutating func writeStructure(_ body: (inout MessageWriter) throws -> Void) throws {
        try failStop { try $0.writeStructureUnchecked(body) }
    }

    private mutating func writeStructureUnchecked(_ body: (inout MessageWriter) throws -> Void) throws {
        try openGrouped(code: UInt8(ascii: "("), kind: .structure, dbusType: DBUS_TYPE_STRUCT)
        try body(&self)
        try closeGrouped()
    }

    /// Writes a variant holding one value of type `type`, which `body` writes.
    public mutating func writeVariant(of type: ValueType, _ body: (inout MessageWriter) throws -> Void) throws {
        try failStop { try $0.writeVariantUnchecked(of: type, body) }
    }

    private mutating func writeVariantUnchecked(of type: ValueType, _ body: (inout MessageWriter) throws -> Void) throws {
        let signature = type.signature
        try expect(UInt8(ascii: "v"))
        if signature.utf8.count > 1 { _ = try Signature(signature) }
        try checkTotalDepth()
        let start = expected.count
        expected.append(contentsOf: signature.utf8)
        offset += 1 + signature.utf8.count + 1
        let child = makeChildIterator()
        let ok = signature.withCString { dbus_message_iter_open_container(child - 1, DBUS_TYPE_VARIANT, $0, child) }
        try checkMemory(ok)
        levels.append(Level(kind: .variant, constrained: true, start: start, end: expected.count, position: start, arrayStart: 0))
        try body(&self)
        try checkUsable()
        let level = levels[levels.count - 1]
        guard level.position == level.end else {
            throw BusError.invalid("A variant of type '\(signature)' was closed without its value.")
        }
        try close()
        expected.removeSubrange(start...)
    }

    // MARK: Opening and closing

    private func checkTotalDepth() throws {
        guard levels.count <= Self.maximumDepth else {
            throw BusError.invalid("Containers are nested more than 64 deep, the D-Bus limit.")
        }
    }

    private mutating func openArray(elementSignature: String, elementType: ValueType?) throws {
        let top = levels.count - 1
        let parentLevel = levels[top]
        let start: Int
        let end: Int
        if parentLevel.constrained {
            // The parent says what comes next: it must be this very array.
            let position = parentLevel.position
            let typeEnd = position < parentLevel.end && expected[position] == UInt8(ascii: "a")
                ? endOfCompleteType(at: position) : position
            guard typeEnd > position,
                  expected[(position + 1)..<typeEnd].elementsEqual(elementSignature.utf8)
            else { throw mismatch(writing: "a" + elementSignature) }
            start = position + 1
            end = typeEnd
            levels[top].count += 1
            levels[top].position = typeEnd
            if parentLevel.kind == .array, typeEnd == parentLevel.end { levels[top].position = parentLevel.start }
        } else {
            if elementSignature.utf8.count > 1, !ValueType.isCommonEntrySignature(elementSignature) { _ = try Signature("a" + elementSignature) }
            levels[top].count += 1
            freeSignatureLength += 1 + elementSignature.utf8.count
            guard freeSignatureLength <= SignatureParser.maximumLength else { throw Self.signatureTooLong }
            start = expected.count
            expected.append(contentsOf: elementSignature.utf8)
            end = expected.count
        }
        try checkTotalDepth()
        let (innerArrays, innerStructs) = Self.nestingDepths(expected[start..<end])
        let arrayDepth = parentLevel.arrayDepth + 1
        guard arrayDepth + innerArrays <= SignatureParser.maximumDepth,
              parentLevel.structDepth + innerStructs <= SignatureParser.maximumDepth
        else { throw BusError.invalid("Arrays or structures are nested more than 32 deep, the D-Bus limit.") }

        align(4)
        offset += 4
        align(Self.alignment(of: expected[start]))
        let child = makeChildIterator()
        let ok = elementSignature.withCString { dbus_message_iter_open_container(child - 1, DBUS_TYPE_ARRAY, $0, child) }
        try checkMemory(ok)
        levels.append(Level(
            kind: .array, constrained: true, arrayDepth: arrayDepth, structDepth: parentLevel.structDepth,
            start: start, end: end, position: start, arrayStart: offset
        ))
    }

    private mutating func closeArray() throws {
        try checkUsable()
        let level = levels[levels.count - 1]
        guard level.position == level.start else {
            throw BusError.invalid("An array element was left incomplete.")
        }
        guard offset - level.arrayStart <= Self.maximumArrayLength else {
            throw BusError.invalid("An array of \(offset - level.arrayStart) bytes exceeds the D-Bus limit of 64 MiB.")
        }
        try close()
    }

    private mutating func openGrouped(code: UInt8, kind: Level.Kind, dbusType: Int32) throws {
        let top = levels.count - 1
        let parentLevel = levels[top]
        var level = Level(
            kind: kind, constrained: parentLevel.constrained, arrayDepth: parentLevel.arrayDepth,
            structDepth: parentLevel.structDepth + 1, start: 0, end: 0, position: 0, arrayStart: 0
        )
        if parentLevel.constrained {
            let position = parentLevel.position
            guard position < parentLevel.end, expected[position] == code else {
                throw mismatch(writing: kind == .structure ? "(…)" : "{…}")
            }
            let typeEnd = endOfCompleteType(at: position)
            level.start = position + 1
            level.end = typeEnd - 1
            level.position = level.start
            levels[top].count += 1
            levels[top].position = typeEnd
            if parentLevel.kind == .array, typeEnd == parentLevel.end { levels[top].position = parentLevel.start }
        } else {
            levels[top].count += 1
            freeSignatureLength += 2
            guard freeSignatureLength <= SignatureParser.maximumLength else { throw Self.signatureTooLong }
        }
        try checkTotalDepth()
        guard level.structDepth <= SignatureParser.maximumDepth else {
            throw BusError.invalid("Structures are nested more than 32 deep, the D-Bus limit.")
        }
        align(8)
        let child = makeChildIterator()
        let ok = dbus_message_iter_open_container(child - 1, dbusType, nil, child)
        try checkMemory(ok)
        levels.append(level)
    }

    private mutating func closeGrouped() throws {
        try checkUsable()
        let level = levels[levels.count - 1]
        if level.constrained {
            guard level.position == level.end else {
                let missing = String(decoding: expected[level.position..<level.end], as: UTF8.self)
                throw BusError.invalid("A \(level.kind == .structure ? "structure" : "dictionary entry") was closed without its '\(missing)'.")
            }
        } else if level.count == 0 {
            throw BusError.invalid("A structure must hold at least one field.")
        }
        try close()
    }

    private mutating func close() throws {
        let child = current
        let ok = dbus_message_iter_close_container(child - 1, child)
        levels.removeLast()
        try checkMemory(ok)
    }

    static func alignment(of code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4
        }
    }

    /// The deepest nesting of arrays and of structures within a signature fragment.
    static func nestingDepths(_ signature: ArraySlice<UInt8>) -> (arrays: Int, structs: Int) {
        // The array depth at each open structure, on the stack (a signature is at most 255 bytes).
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, signature.count)) { arrayStack in
            var maxArrays = 0, maxStructs = 0, structs = 0, arrays = 0
            var open = 0
            for c in signature {
                switch c {
                case UInt8(ascii: "a"):
                    arrays += 1
                    maxArrays = max(maxArrays, arrays)
                    continue
                case UInt8(ascii: "("), UInt8(ascii: "{"):
                    arrayStack[open] = arrays
                    open += 1
                    structs += 1
                    maxStructs = max(maxStructs, structs)
                    continue
                case UInt8(ascii: ")"), UInt8(ascii: "}"):
                    structs -= 1
                    if open > 0 { open -= 1 }
                default:
                    break
                }
                // A complete type ended: the arrays that prefixed it end with it, back to the
                // depth of the enclosing structure.
                arrays = open > 0 ? arrayStack[open - 1] : 0
            }
            return (maxArrays, maxStructs)
        }
    }
}
