/// What each part of a song plays. A part is a channel on a MIDI port (port × 16 + channel), as
/// a sequencer sends the song to a synthesizer: each track's channel messages go to the port its
/// last port meta event selected. Each part is read as ``SongSummary`` reads a channel (its banks,
/// programs, notes, drums), so that it is named as `info` names a channel.
public struct SongParts: Sendable {
    /// The ports the song's tracks select: 1 and the highest port selected.
    public let portCount: Int
    /// Each part's state, for parts 0..<16 × `ports`.
    private let states: [ChannelState]

    /// `mode` is the standard the song is read as; `ports`, how many ports the synthesizer has,
    /// by which a port meta event's number is taken (modulo), as the sequencer takes it.
    public init(song: Song, mode: MIDIMode, ports: Int) {
        var states = (0..<16 * ports).map { ChannelState(channel: UInt8($0 % 16), mode: mode) }
        var trackPorts = [Int](repeating: 0, count: song.file.tracks.count)
        var highestPort = 0
        song.forEachMergedEvent { timed in
            let event = timed.event
            let track = song.file.tracks[timed.track]
            if event.isChannelMessage {
                states[trackPorts[timed.track] * 16 + Int(event.channel)].apply(event)
                return
            }
            switch track.message(of: event) {
            case .meta(.port(let port)):
                trackPorts[timed.track] = Int(port) % ports
                highestPort = max(highestPort, trackPorts[timed.track])
            case .systemExclusive(let bytes) where bytes.last == 0xF7:
                // A GS or XG drum part setting names its part as the synthesizer's sound module
                // takes it, whatever the track's port.
                SoundModuleCommand.decode(bytes.dropLast()) { command in
                    if case .partDrumMode(let part, let isDrum) = command, part < states.count { states[part].isDrumPart = isDrum }
                }
            default:
                break
            }
        }
        portCount = highestPort + 1
        self.states = states
    }

    /// What `part` plays, as `info` names a channel's first program: `Percussion` for a drum part,
    /// else the General MIDI name of the first program selected (`Program N` where it has none), or
    /// of program 1, which plays when none is selected. Only these names and numbers: safe in a
    /// file's name.
    public func instrument(ofPart part: Int) -> String {
        guard let summary = states[part].summary else {
            return part % 16 == Int(GeneralMIDI.percussionChannel) ? Self.percussion : GeneralMIDI.instrumentName(program: 0)
        }
        if summary.isPercussion { return Self.percussion }
        guard let first = summary.programs.first else { return GeneralMIDI.instrumentName(program: 0) }
        return first.instrument ?? "Program \(first.program + 1)"
    }

    private static let percussion = "Percussion"
}
