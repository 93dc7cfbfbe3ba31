import CSystemd

/// A D-Bus value of the few types MPRIS needs, written into an sd-bus message with its signature.
enum BusValue {
    case string(String)
    case objectPath(String)
    case boolean(Bool)
    case double(Double)
    case int64(Int64)
    case strings([String])
    /// `a{sv}`: MPRIS metadata.
    case dictionary([(key: String, value: BusValue)])

    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .boolean: "b"
        case .double: "d"
        case .int64: "x"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }

    /// Appends the value to `message` (a reply, a signal, a property's value).
    func append(to message: OpaquePointer) throws(BusFailure) {
        switch self {
        case .string(let text): try Self.appendText(text, type: "s", to: message)
        case .objectPath(let path): try Self.appendText(path, type: "o", to: message)
        case .boolean(let value):
            // D-Bus booleans are 32 bits wide.
            var word: Int32 = value ? 1 : 0
            try BusFailure.check(sd_bus_message_append_basic(message, Self.type("b"), &word))
        case .double(var value): try BusFailure.check(sd_bus_message_append_basic(message, Self.type("d"), &value))
        case .int64(var value): try BusFailure.check(sd_bus_message_append_basic(message, Self.type("x"), &value))
        case .strings(let texts):
            try BusFailure.check(sd_bus_message_open_container(message, Self.type("a"), "s"))
            for text in texts { try Self.appendText(text, type: "s", to: message) }
            try BusFailure.check(sd_bus_message_close_container(message))
        case .dictionary(let entries):
            try BusFailure.check(sd_bus_message_open_container(message, Self.type("a"), "{sv}"))
            for (key, value) in entries {
                try BusFailure.check(sd_bus_message_open_container(message, Self.type("e"), "sv"))
                try Self.appendText(key, type: "s", to: message)
                try BusFailure.check(sd_bus_message_open_container(message, Self.type("v"), value.signature))
                try value.append(to: message)
                try BusFailure.check(sd_bus_message_close_container(message))
                try BusFailure.check(sd_bus_message_close_container(message))
            }
            try BusFailure.check(sd_bus_message_close_container(message))
        }
    }

    /// sd-bus takes a string type's value as the C string itself, not a pointer to it.
    private static func appendText(_ text: String, type: Character, to message: OpaquePointer) throws(BusFailure) {
        let result = text.withCString { sd_bus_message_append_basic(message, Self.type(type), $0) }
        try BusFailure.check(result)
    }

    static func type(_ character: Character) -> CChar {
        CChar(character.asciiValue!)
    }
}
