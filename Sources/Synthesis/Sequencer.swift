import SMF

/// Feeds a song's events into a synthesizer at their sample positions while it renders.
///
/// Rendering stops at each event's frame, applies the event and goes on, so
/// whatever the buffer size, an event lands within one FluidSynth block
/// (64 frames) of its exact time. Nothing here allocates while rendering.
public final class Sequencer {
    /// An event the synthesizer acts on, at its frame.
    struct Step {
        var frame: Int64
        var event: TrackEvent
        var track: Int32
    }

    public let song: Song
    public let synthesizer: Synthesizer
    private let steps: [Step]
    /// The frame of the song's last event (End of Track included).
    public let endFrame: Int64
    /// The standard the song was written for, which the synthesizer reads it as from its start
    /// (unless the settings choose one).
    public let modeDetection: MIDIModeDetection
    /// The next frame to render.
    public private(set) var position: Int64 = 0
    private var cursor = 0
    /// Each track's MIDI port (from its port meta events), which selects a block of 16 channels.
    private var trackPorts: [Int]
    private var systemExclusive = SystemExclusiveAssembler()
    /// Whether the synthesizer has been reset for this song (by a rewind or a seek).
    private var hasStarted = false

    public init(song: Song, synthesizer: Synthesizer) {
        self.song = song
        self.synthesizer = synthesizer
        let rate = synthesizer.configuration.sampleRate
        let file = song.file
        steps = song.mergedEvents().compactMap { timed in
            let event = timed.event
            let isPortChange = event.status == 0xFF && file.tracks[timed.track].metaType(of: event) == 0x21
            guard event.status != 0xFF || isPortChange else { return nil }
            return Step(frame: Int64((timed.seconds * rate).rounded()), event: event, track: Int32(timed.track))
        }
        endFrame = Int64((song.duration * rate).rounded())
        modeDetection = MIDIModeDetection(song: song)
        trackPorts = Array(repeating: 0, count: file.tracks.count)
    }

    /// The port a port meta event selects; a synthesizer has 4 (64 channels), so port 4 is 0 again.
    static func port(in payload: ArraySlice<UInt8>) -> Int {
        Int(payload.first ?? 0) % (Synthesizer.channelCount / 16)
    }

    /// Whether every event has been sent and the song's length rendered.
    public var isAtEnd: Bool { cursor == steps.count && position >= endFrame }

    /// Renders `frames` interleaved stereo frames, sending each event when its frame comes. The
    /// first render of a sequencer not yet rewound or sought starts it: the synthesizer is reset
    /// for the song's standard.
    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if !hasStarted { rewind() }
        var done = 0
        while done < frames {
            while cursor < steps.count, steps[cursor].frame <= position {
                apply(steps[cursor])
                cursor += 1
            }
            let untilNextEvent = cursor < steps.count ? Int(clamping: steps[cursor].frame - position) : Int.max
            let chunk = min(frames - done, untilNextEvent)
            synthesizer.render(into: buffer + 2 * done, frames: chunk)
            done += chunk
            position += Int64(chunk)
        }
    }

    /// Works out a seek to `frame`: the state playing from the start would leave the synthesizer
    /// in there (programs, banks, controllers, parameters, pitch bend, pressure, system exclusive,
    /// ports), and with `chaseNotes`, the notes sounding there, held or sustained by the pedal,
    /// to be struck again. Reads every event before `frame`, so its time grows with the song: a
    /// player calls it on its own thread, and hands the plan to the audio thread to follow.
    /// Reads only what never changes, so it may run while another thread renders.
    public func plan(seekingTo frame: Int64, chaseNotes: Bool = false) -> SeekPlan {
        let target = max(0, frame)
        let cursor = firstStep(atOrAfter: target)
        var chaser = SeekChaser(tracks: song.file.tracks, chasesNotes: chaseNotes)
        for index in 0..<cursor { chaser.follow(steps[index], order: index) }
        return chaser.plan(frame: target, cursor: cursor, sequencer: ObjectIdentifier(self))
    }

    /// Makes a seek planned by ``plan(seekingTo:chaseNotes:)``: resets the synthesizer (voices
    /// sounding are cut) and sends the plan's messages, a number bounded whatever the song's
    /// length, without allocating: fit for the audio thread.
    public func seek(following plan: SeekPlan) {
        precondition(plan.sequencer == ObjectIdentifier(self), "a seek planned for another sequencer")
        restart(at: plan.cursor, frame: plan.frame, trackPorts: plan.trackPorts)
        plan.send(to: synthesizer)
    }

    /// Back to the start of the song, the synthesizer reset. Fit for the audio thread.
    public func rewind() {
        restart(at: 0, frame: 0, trackPorts: nil)
    }

    /// Plans a seek and makes it at once (see ``plan(seekingTo:chaseNotes:)``): for rendering to a
    /// file, where nothing waits for the audio.
    public func seek(toFrame frame: Int64, chaseNotes: Bool = false) {
        seek(following: plan(seekingTo: frame, chaseNotes: chaseNotes))
    }

    /// Moves to a time in seconds (see ``seek(toFrame:chaseNotes:)``).
    public func seek(toSeconds seconds: Double, chaseNotes: Bool = false) {
        seek(toFrame: Int64((seconds * synthesizer.configuration.sampleRate).rounded()), chaseNotes: chaseNotes)
    }

    private func restart(at cursor: Int, frame: Int64, trackPorts ports: [Int]?) {
        hasStarted = true
        synthesizer.reset(songMode: modeDetection.mode)
        systemExclusive.clear()
        for index in trackPorts.indices { trackPorts[index] = ports?[index] ?? 0 }
        self.cursor = cursor
        position = frame
    }

    /// The index of the first event at or after `frame` (the events are in time order).
    private func firstStep(atOrAfter frame: Int64) -> Int {
        var low = 0
        var high = steps.count
        while low < high {
            let middle = (low + high) / 2
            if steps[middle].frame < frame { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func apply(_ step: Step) {
        let event = step.event
        let track = Int(step.track)
        switch event.status {
        case 0x80...0xEF:
            synthesizer.send(status: event.status, channel: trackPorts[track] * 16 + Int(event.channel), data1: event.data1, data2: event.data2)
        case 0xFF:
            // Only port changes are kept among meta events.
            trackPorts[track] = Self.port(in: song.file.tracks[track].payload(of: event))
        default:
            systemExclusive.add(status: event.status, packet: song.file.tracks[track].payload(of: event)) { message in
                synthesizer.sendSystemExclusive(message)
            }
        }
    }
}
