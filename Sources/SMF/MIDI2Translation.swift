/// A MIDI 2.0 channel voice message (UMP type 4) as the MIDI 1.0 messages that say the same, by
/// the default translation of the MIDI 2.0 specification (M2-104-UM, "Translation: MIDI 1.0 and
/// MIDI 2.0 Protocol"): 16-bit velocities and 32-bit values keep their top 7 bits (14 for pitch
/// bend and a controller's data entry); a note on whose velocity comes to 0 sounds at 1 (MIDI 2.0
/// has no note off in a note on); a program change with its bank is bank select then program;
/// registered and assignable controllers are RPN and NRPN with data entry. What MIDI 1.0 cannot
/// say (per-note controllers, per-note pitch bend and management, relative controllers) is
/// dropped, the kind said.
enum MIDI2Translation {
    enum Outcome: Equatable {
        case messages([MIDIMessage])
        case dropped(MIDI2DroppedMessage)
    }

    static func messages(of packet: UniversalMIDIPacket) -> Outcome {
        let channel = packet.channel
        let index = packet.byte3 & 0x7F
        let data = packet.words.1
        switch packet.status {
        case 0x8:
            return .messages([.noteOff(channel: channel, note: index, velocity: UInt8(data >> 25))])
        case 0x9:
            return .messages([.noteOn(channel: channel, note: index, velocity: max(1, UInt8(data >> 25)))])
        case 0xA:
            return .messages([.notePressure(channel: channel, note: index, pressure: UInt8(data >> 25))])
        case 0xB:
            return .messages([.controlChange(channel: channel, controller: index, value: UInt8(data >> 25))])
        case 0xC:
            let program = MIDIMessage.programChange(channel: channel, program: UInt8(data >> 24 & 0x7F))
            guard packet.byte4 & 1 == 1 else { return .messages([program]) }
            return .messages([
                .controlChange(channel: channel, controller: 0, value: UInt8(data >> 8 & 0x7F)),
                .controlChange(channel: channel, controller: 32, value: UInt8(data & 0x7F)), program,
            ])
        case 0xD:
            return .messages([.channelPressure(channel: channel, pressure: UInt8(data >> 25))])
        case 0xE:
            return .messages([.pitchBend(channel: channel, value: UInt16(data >> 18))])
        case 0x2, 0x3:
            let (msb, lsb): (UInt8, UInt8) = packet.status == 0x2 ? (101, 100) : (99, 98)
            return .messages([
                .controlChange(channel: channel, controller: msb, value: packet.byte3 & 0x7F),
                .controlChange(channel: channel, controller: lsb, value: packet.byte4 & 0x7F),
                .controlChange(channel: channel, controller: 6, value: UInt8(data >> 25)),
                .controlChange(channel: channel, controller: 38, value: UInt8(data >> 18 & 0x7F)),
            ])
        case 0x0, 0x1: return .dropped(.perNoteController)
        case 0x4, 0x5: return .dropped(.relativeController)
        case 0x6: return .dropped(.perNotePitchBend)
        case 0xF: return .dropped(.perNoteManagement)
        default: return .dropped(.reserved)
        }
    }
}

/// What a MIDI 2.0 clip holds that a MIDI 1.0 synthesizer cannot be told, and is dropped.
public enum MIDI2DroppedMessage: String, Hashable, Sendable, CaseIterable {
    case perNoteController = "per-note controller"
    case perNotePitchBend = "per-note pitch bend"
    case perNoteManagement = "per-note management"
    case relativeController = "relative registered or assignable controller"
    case eightBitData = "8-bit system exclusive or mixed data set"
    case systemMessage = "system common or real-time"
    case reserved = "reserved message type"
}
