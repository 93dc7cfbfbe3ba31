import SMF

/// The system exclusive messages that still matter at a seek's target, to be sent again in their
/// order.
///
/// A reset (GM, GS or XG) undoes everything before it, so only the last one and what follows it
/// count. Of those, a message sent again makes its earlier copies useless, and so does a later
/// master volume to an earlier one. Of the rest, the latest are kept, at most ``limit`` messages
/// and ``byteLimit`` bytes, so that sending them again is bounded work; files come nowhere near.
struct SystemExclusiveChase {
    static let limit = 256
    static let byteLimit = 1 << 16

    private typealias Message = (order: Int, bytes: [UInt8])

    private var lastReset: Message?
    /// The messages after the last reset, with the index of the event that ended each.
    private var sinceReset: [Message] = []

    /// Takes a complete message (without `F0` and `F7`); returns whether it resets the synthesizer.
    mutating func record(_ message: [UInt8], order: Int) -> Bool {
        guard Self.resets(message) else {
            sinceReset.append((order, message))
            return false
        }
        lastReset = (order, message)
        sinceReset.removeAll()
        return true
    }

    /// The messages kept, in the song's order, their bytes appended to `bytes`.
    func appendMessages(to messages: inout [OrderedMessage], bytes: inout [UInt8]) {
        var latestFirst: [Message] = []
        var seen = Set<[UInt8]>()
        var hasMasterVolume = false
        var byteCount = 0
        for message in sinceReset.reversed() where seen.insert(message.bytes).inserted {
            if SoundModuleCommand.commands(in: message.bytes).contains(where: { if case .masterVolume = $0 { true } else { false } }) {
                if hasMasterVolume { continue }
                hasMasterVolume = true
            }
            byteCount += message.bytes.count
            if latestFirst.count == Self.limit || byteCount > Self.byteLimit { break }
            latestFirst.append(message)
        }
        for message in [lastReset].compactMap({ $0 }) + latestFirst.reversed() {
            let range = SeekPlan.Message.systemExclusive(start: Int32(bytes.count), count: Int32(message.bytes.count))
            messages.append(OrderedMessage(order: message.order, message: range))
            bytes.append(contentsOf: message.bytes)
        }
    }

    /// Whether a message resets the sound module (and so everything before it).
    static func resets(_ message: [UInt8]) -> Bool {
        SoundModuleCommand.commands(in: message).contains { command in
            switch command {
            case .reset, .generalMIDIOff: true
            default: false
            }
        }
    }
}
