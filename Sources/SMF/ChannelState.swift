/// Follows one channel's bank and program selections and counts its notes.
///
/// Whether the channel plays drums follows the song's standard, as the synthesizer's sound module
/// reads it: channel 10, or a GS rhythm part or XG drum part; in XG a drum kit bank (126, 127) and
/// in GM2 the rhythm bank (120) at a program change. A channel counts as percussion when most of
/// its notes are played as drums.
struct ChannelState {
    let channel: UInt8
    let mode: MIDIMode
    var bankMSB: UInt8 = 0
    var bankLSB: UInt8 = 0
    var noteCount = 0
    var drumNoteCount = 0
    var used = false
    var programs: [SongSummary.ProgramSelection] = []
    /// Drums unless a bank select says otherwise.
    var isDrumPart: Bool {
        didSet { isDrum = isDrumPart }
    }
    var isDrum: Bool

    init(channel: UInt8, mode: MIDIMode) {
        self.channel = channel
        self.mode = mode
        isDrumPart = channel == GeneralMIDI.percussionChannel
        isDrum = isDrumPart
    }

    mutating func apply(_ event: TrackEvent) {
        used = true
        switch event.status & 0xF0 {
        case 0x90 where event.startsNote: countNotes(1, asDrum: isDrum)
        case 0xB0 where event.data1 & 0x7F == 0: bankMSB = event.data2 & 0x7F
        case 0xB0 where event.data1 & 0x7F == 32: bankLSB = event.data2 & 0x7F
        case 0xC0:
            isDrum =
                switch (mode, bankMSB) {
                case (.xg, 126...127), (.gm2, 120): true
                case (.gm2, 121): false
                default: isDrumPart
                }
            let program = event.data1 & 0x7F
            let selection = SongSummary.ProgramSelection(
                program: Int(program), bankMSB: Int(bankMSB), bankLSB: Int(bankLSB),
                instrument: isDrum ? nil : GeneralMIDI.instrumentName(program: program))
            if !programs.contains(selection) { programs.append(selection) }
        default: break
        }
    }

    /// Counts `count` notes played while the channel plays drums or not.
    mutating func countNotes(_ count: Int, asDrum: Bool) {
        noteCount += count
        if asDrum { drumNoteCount += count }
    }

    /// Whether `event` changes what the channel plays (a bank or program selection), as opposed
    /// to a note or a controller, which ``apply(_:)`` only counts or passes by.
    static func isSetting(_ event: TrackEvent) -> Bool {
        switch event.status & 0xF0 {
        case 0xB0: event.data1 & 0x7F == 0 || event.data1 & 0x7F == 32
        case 0xC0: true
        default: false
        }
    }

    var summary: SongSummary.ChannelSummary? {
        guard used else { return nil }
        let isPercussion = noteCount == 0 ? isDrum : drumNoteCount * 2 > noteCount
        return SongSummary.ChannelSummary(channel: Int(channel) + 1, noteCount: noteCount, programs: programs, isPercussion: isPercussion)
    }
}
