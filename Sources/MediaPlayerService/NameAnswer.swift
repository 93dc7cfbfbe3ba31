import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// The bus's answer to a request for a name, as `sd_bus_request_name` reads it: 0 once the name is
/// this connection's, -EEXIST when another has it, or the error's errno. Filled in by `receive`,
/// which sd-bus calls with the reply, on the thread that serves the bus.
final class NameAnswer {
    var result: Int32?

    /// What RequestName answers (the D-Bus specification's values).
    private enum Reply: UInt32 {
        case primaryOwner = 1
        case inQueue = 2
        case exists = 3
        case alreadyOwner = 4
    }

    static let receive: sd_bus_message_handler_t = { message, userdata, _ in
        let answer = Unmanaged<NameAnswer>.fromOpaque(userdata!).takeUnretainedValue()
        guard let message else {
            answer.result = -EINVAL
            return 0
        }
        let errno = sd_bus_message_get_errno(message)
        if errno != 0 {
            answer.result = -errno
            return 0
        }
        var value: UInt32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &value) >= 0 else {
            answer.result = -EBADMSG
            return 0
        }
        answer.result =
            switch Reply(rawValue: value) {
            case .primaryOwner, .alreadyOwner: 0
            case .exists: -EEXIST
            // Asked without queueing, as sd_bus_request_name asks: a queued request is one refused.
            case .inQueue, nil: -EBADMSG
            }
        return 0
    }
}
