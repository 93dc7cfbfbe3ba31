/// The notes one channel is sounding at a seek's target, as FluidSynth would be sounding them,
/// and the messages that strike them again there.
///
/// A note sounds while its key is held, and after that while the sustain pedal (64) that was down
/// when the key was let go stays down. All notes off (123) lets go of every key, so under the
/// pedal the notes go on; all sound off (120) and a reset silence everything, and reset all
/// controllers (121) lifts the pedal. A key struck again while it sounds is let go first.
struct NoteChase {
    private static let keyCount = 128
    /// The velocity of each key held down; 0 when it is not.
    private var held = [UInt8](repeating: 0, count: keyCount)
    /// The velocity of each key let go and held by the pedal; 0 when there is none.
    private var sustained = [UInt8](repeating: 0, count: keyCount)
    private var isPedalDown = false

    /// A note on; at velocity 0, a note off.
    mutating func strike(_ key: UInt8, velocity: UInt8) {
        let key = Int(key & 0x7F)
        letGo(key)
        held[key] = velocity & 0x7F
    }

    /// A note off.
    mutating func letGo(_ key: UInt8) {
        letGo(Int(key & 0x7F))
    }

    private mutating func letGo(_ key: Int) {
        guard held[key] != 0 else { return }
        if isPedalDown { sustained[key] = held[key] }
        held[key] = 0
    }

    /// A controller change: those of the pedal and the channel mode messages matter.
    mutating func control(_ controller: UInt8, value: UInt8) {
        switch controller & 0x7F {
        case 64:
            isPedalDown = value & 0x7F >= 64
            if !isPedalDown { endSustainedNotes() }
        case 121:
            isPedalDown = false
            endSustainedNotes()
        case 123:
            for key in 0..<Self.keyCount { letGo(key) }
        case 120:
            // The pedal stays down, to hold the notes let go from now on.
            for key in 0..<Self.keyCount { held[key] = 0 }
            endSustainedNotes()
        default:
            break
        }
    }

    private mutating func endSustainedNotes() {
        for key in sustained.indices { sustained[key] = 0 }
    }

    /// Strikes the notes sounding, for a channel whose controllers are already as at the target:
    /// those the pedal holds are struck and let go at once, under the pedal, so that it goes on
    /// holding them until it comes up as it did in the song.
    func messages(channel: Int) -> [SeekPlan.Message] {
        let channel = UInt8(channel)
        var messages: [SeekPlan.Message] = []
        for (key, velocity) in sustained.enumerated() where velocity != 0 {
            messages.append(.channel(status: 0x90, channel: channel, data1: UInt8(key), data2: velocity))
            messages.append(.channel(status: 0x80, channel: channel, data1: UInt8(key), data2: 0))
        }
        for (key, velocity) in held.enumerated() where velocity != 0 {
            messages.append(.channel(status: 0x90, channel: channel, data1: UInt8(key), data2: velocity))
        }
        return messages
    }
}
