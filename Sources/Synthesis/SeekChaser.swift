import SMF

/// Follows the events before a seek's target as the synthesizer would have taken them, keeping
/// only what still matters there, and makes the ``SeekPlan`` that brings a reset synthesizer to
/// the same state: per channel the controllers, program, pitch bend, pressure, parameters and,
/// when notes are chased, the notes sounding; the system exclusive messages since the last reset;
/// each track's port.
struct SeekChaser {
    private let tracks: [Track]
    private let chasesNotes: Bool
    private var trackPorts: [Int]
    private var assembler = SystemExclusiveAssembler()
    private var systemExclusive = SystemExclusiveChase()
    private var controllers: [ControllerChase]
    private var parameters: [ParameterChase]
    private var notes: [NoteChase]

    init(tracks: [Track], chasesNotes: Bool) {
        self.tracks = tracks
        self.chasesNotes = chasesNotes
        trackPorts = Array(repeating: 0, count: tracks.count)
        controllers = Array(repeating: ControllerChase(), count: Synthesizer.channelCount)
        parameters = Array(repeating: ParameterChase(), count: Synthesizer.channelCount)
        notes = Array(repeating: NoteChase(), count: chasesNotes ? Synthesizer.channelCount : 0)
    }

    /// Takes the event at `order` in the sequencer's list, the events being taken in that order.
    mutating func follow(_ step: Sequencer.Step, order: Int) {
        let event = step.event
        let track = Int(step.track)
        switch event.status {
        case 0x80...0xEF:
            follow(event, channel: trackPorts[track] * 16 + Int(event.channel), order: order)
        case 0xFF:
            trackPorts[track] = Sequencer.port(in: tracks[track].payload(of: event))
        default:
            var message: [UInt8]?
            assembler.add(status: event.status, packet: tracks[track].payload(of: event)) { message = Array($0) }
            if let message, systemExclusive.record(message, order: order) { resetChannels() }
        }
    }

    private mutating func follow(_ event: TrackEvent, channel: Int, order: Int) {
        switch event.status & 0xF0 {
        case 0x80:
            if chasesNotes { notes[channel].letGo(event.data1) }
        case 0x90:
            if chasesNotes { notes[channel].strike(event.data1, velocity: event.data2) }
        case 0xA0:
            // Key pressure belongs to notes that are not sounding any more: those struck again start afresh.
            break
        case 0xB0:
            if ParameterChase.handles(controller: event.data1) {
                parameters[channel].record(controller: event.data1, value: event.data2, order: order)
            } else {
                controllers[channel].record(event, channel: channel, order: order)
                if event.data1 & 0x7F == 121 { parameters[channel].resetControllers() }
            }
            if chasesNotes { notes[channel].control(event.data1, value: event.data2) }
        default:
            controllers[channel].record(event, channel: channel, order: order)
        }
    }

    /// A reset puts every channel back as it was at power-on, notes silenced.
    private mutating func resetChannels() {
        controllers = Array(repeating: ControllerChase(), count: controllers.count)
        parameters = Array(repeating: ParameterChase(), count: parameters.count)
        notes = Array(repeating: NoteChase(), count: notes.count)
    }

    /// The plan for a seek to `frame`, whose first event not taken is `cursor`: the messages kept
    /// in the song's order, then each channel's parameters, then its notes, struck once everything
    /// they sound with is in place.
    func plan(frame: Int64, cursor: Int, sequencer: ObjectIdentifier) -> SeekPlan {
        var ordered: [OrderedMessage] = []
        var bytes: [UInt8] = []
        systemExclusive.appendMessages(to: &ordered, bytes: &bytes)
        for channel in controllers { channel.appendMessages(to: &ordered) }
        ordered.sort { $0.order < $1.order }
        var messages = ordered.map(\.message)
        for (channel, parameters) in parameters.enumerated() { messages += parameters.messages(channel: channel) }
        for (channel, notes) in notes.enumerated() { messages += notes.messages(channel: channel) }
        return SeekPlan(
            frame: frame, sequencer: sequencer, cursor: cursor, trackPorts: trackPorts,
            messages: messages, systemExclusiveBytes: bytes)
    }
}
