import CSystemd

/// The arguments of an incoming call (or the value of a property being set), read from its sd-bus
/// message. sd-bus has checked them against the member's signature before the call gets here, so
/// a read fails only if the message is broken.
struct BusArguments: CallArguments {
    let message: OpaquePointer

    func string() throws(MediaPlayerCallError) -> String {
        try text(type: "s")
    }

    func objectPath() throws(MediaPlayerCallError) -> String {
        try text(type: "o")
    }

    func int64() throws(MediaPlayerCallError) -> Int64 {
        var value: Int64 = 0
        try check(sd_bus_message_read_basic(message, BusValue.type("x"), &value))
        return value
    }

    func bool() throws(MediaPlayerCallError) -> Bool {
        // D-Bus booleans are 32 bits on the wire; sd-bus reads them into an int.
        var value: Int32 = 0
        try check(sd_bus_message_read_basic(message, BusValue.type("b"), &value))
        return value != 0
    }

    func double() throws(MediaPlayerCallError) -> Double {
        var value = 0.0
        try check(sd_bus_message_read_basic(message, BusValue.type("d"), &value))
        return value
    }

    private func text(type: Character) throws(MediaPlayerCallError) -> String {
        // The string stays the message's: copied before anything else reads on.
        var pointer: UnsafePointer<CChar>?
        try check(sd_bus_message_read_basic(message, BusValue.type(type), &pointer))
        guard let pointer else { throw .unreadableArguments("no string") }
        return String(cString: pointer)
    }

    private func check(_ result: Int32) throws(MediaPlayerCallError) {
        do {
            try BusFailure.check(result)
        } catch {
            throw .unreadableArguments(error.description)
        }
    }
}
