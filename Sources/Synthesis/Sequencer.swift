import SMF

/// Feeds a song's events into a synthesizer at their sample positions while it renders.
///
/// Rendering stops at each event's frame, applies the event and goes on, so
/// whatever the buffer size, an event lands within one FluidSynth block
/// (64 frames) of its exact time. Nothing here allocates while rendering.
///
/// Positions are song frames: the song's own time at the sample rate. The listener's tempo
/// (``Performance/tempo``) decides how many song frames an output frame moves on, so seeks, the
/// loop and the resume state stay in song time whatever the tempo.
public final class Sequencer {
    /// An event the synthesizer acts on, at its frame.
    struct Step {
        var frame: Int64
        var event: TrackEvent
        var track: Int32
    }

    /// The song's loop, made ready to jump back without a gap: where it starts and ends, and the
    /// state (controllers, programs, bends) the song has at its start.
    private struct Loop {
        var startFrame: Int64
        var startCursor: Int
        var endFrame: Int64
        var stateAtStart: SeekPlan
    }

    public let song: Song
    public let synthesizer: Synthesizer
    private let steps: [Step]
    /// The frame of the song's last event (End of Track included).
    public let endFrame: Int64
    /// The standard the song was written for, which the synthesizer reads it as from its start
    /// (unless the settings choose one).
    public let modeDetection: MIDIModeDetection
    /// The song's loop, and why marks in the file make none; empty when the settings play the song
    /// as written.
    public let loopFinding: SongLoop.Finding
    /// Set once, when the sequencer is made.
    private var loop: Loop?
    /// For a part of a split song, which part plays each key (channel × 128 + key), and this
    /// sequencer's part: it sends only its own keys' notes. Empty for a whole song.
    private let owners: [UInt8]
    private let part: UInt8
    /// For a part, the whole song's sequencer, whose seek plans the part follows.
    private let whole: Sequencer?
    private let loopSettings: LoopSettings
    /// The next frame to render.
    public private(set) var position: Int64 = 0
    /// `position` with the fraction an output frame leaves at a tempo other than 1.
    private var exactPosition = 0.0
    private var cursor = 0
    /// Each track's MIDI port (from its port meta events), which selects a block of 16 channels.
    private var trackPorts: [Int]
    private var systemExclusive = SystemExclusiveAssembler()
    /// Whether the synthesizer has been reset for this song (by a rewind or a seek).
    private var hasStarted = false
    /// The pass through the loop being played, from 1.
    public private(set) var pass = 1
    /// Output frames of the final fade still to play, once it has started.
    private var fadeRemaining: Int?
    private let fadeFrames: Int
    /// The fade has ended: the song is over.
    private var hasFadedOut = false
    /// Rendering has reached the loop's end, going round: the next frame is the loop's start. (A
    /// seek beyond the loop's end plays on from there, to the song's end.)
    private var isAtLoopEnd = false

    public init(song: Song, synthesizer: Synthesizer, loops: LoopSettings = .asWritten) {
        self.song = song
        self.synthesizer = synthesizer
        let rate = synthesizer.configuration.sampleRate
        let file = song.file
        // Straight from the merge, with no array of every event between: on a dense song (2
        // million notes) that array would double the memory a load needs at its peak.
        var steps: [Step] = []
        steps.reserveCapacity(file.tracks.reduce(0) { $0 + $1.events.count })
        song.forEachMergedEvent { timed in
            let event = timed.event
            let isPortChange = event.status == 0xFF && file.tracks[timed.track].metaType(of: event) == 0x21
            guard event.status != 0xFF || isPortChange else { return }
            steps.append(Step(frame: Int64((timed.seconds * rate).rounded()), event: event, track: Int32(timed.track)))
        }
        self.steps = steps
        endFrame = Int64((song.duration * rate).rounded())
        modeDetection = MIDIModeDetection(song: song)
        trackPorts = Array(repeating: 0, count: file.tracks.count)
        // A song played as written needs no look for its marks.
        loopFinding = loops.isAsWritten ? SongLoop.Finding() : SongLoop.find(in: song)
        loopSettings = loops.applying(markedPasses: loopFinding.loop?.markedPasses)
        fadeFrames = Int((loops.fadeSeconds * rate).rounded())
        owners = []
        part = 0
        whole = nil
        if let found = loopFinding.loop, !loops.isAsWritten {
            let start = Int64((song.tempoMap.seconds(atTick: found.startTick) * rate).rounded())
            let end = Int64((song.tempoMap.seconds(atTick: found.endTick) * rate).rounded())
            loop = Loop(
                startFrame: start, startCursor: firstStep(atOrAfter: start), endFrame: end,
                stateAtStart: plan(seekingTo: start).withoutSystemExclusive)
        }
    }

    /// A sequencer for one part of a song split across synthesizers (see ``NoteSplit``): it
    /// follows the song exactly as `whole` does (time, loops, controllers, programs, system
    /// exclusive, the listener's changes), but sends the notes of its part's keys alone.
    /// `synthesizer` must be one like `whole`'s, never played.
    public init(partOf whole: Sequencer, synthesizer: Synthesizer, part: Int, of split: NoteSplit) {
        song = whole.song
        self.synthesizer = synthesizer
        steps = whole.steps
        endFrame = whole.endFrame
        modeDetection = whole.modeDetection
        loopFinding = whole.loopFinding
        loop = whole.loop
        loopSettings = whole.loopSettings
        fadeFrames = whole.fadeFrames
        trackPorts = Array(repeating: 0, count: whole.song.file.tracks.count)
        owners = split.owners
        self.part = UInt8(part)
        self.whole = whole
    }

    /// The sequencer whose seek plans this one follows: itself, or the whole song's for a part.
    private var planner: ObjectIdentifier { ObjectIdentifier(whole ?? self) }

    /// What each key of each channel asks of a synthesizer over the song, in voice-seconds: for
    /// each note, the voices FluidSynth starts for it and how long they sound (``VoiceProfile``),
    /// as `probe` plays it after the song's messages so far; and which keys must stay together.
    /// The measure a split of the song across synthesizers balances (``NoteSplit``). `probe` must
    /// be a synthesizer like this one's (its effects may be off): another, which it leaves used, or
    /// this one's own before it plays, which the first render resets to a new one's state (but for
    /// the first block of the voices it probed with: see ``Synthesizer/voiceProfile(channel:key:velocity:)``).
    public func noteLoads(probe: Synthesizer) -> NoteLoads {
        var result = NoteLoads()
        // The frame each key went down on and what it costs, by slot.
        var downAt = [Int64](repeating: -1, count: NoteLoads.slotCount)
        var profiles = [VoiceProfile?](repeating: nil, count: NoteLoads.slotCount)
        var known: [ProbedNote: VoiceProfile] = [:]
        // How long each one-shot sound lasts held, by channel, preset and key (velocity layers
        // seldom differ in length), and the seconds of sound rendered to find out so far.
        var lengths: [ProbedNote: Double] = [:]
        var lengthSecondsRendered = 0.0
        /// The first slot seen with each exclusive class, by channel × 128 + class.
        var classMembers: [Int: Int] = [:]
        var ports = [Int](repeating: 0, count: song.file.tracks.count)
        var assembler = SystemExclusiveAssembler()
        let rate = probe.configuration.sampleRate
        func release(_ slot: Int, at frame: Int64) {
            guard downAt[slot] >= 0, let profile = profiles[slot] else { return }
            result.loads[slot] += profile.cost(heldFor: Double(frame - downAt[slot]) / rate)
            downAt[slot] = -1
        }
        /// How long a one-shot sound is heard, measured once per channel, preset and key, within
        /// the song's budget (nil past it).
        func soundingSeconds(of note: ProbedNote, velocity: UInt8) -> Double? {
            var sound = note
            sound.loudness = 0
            if lengths[sound] == nil, lengthSecondsRendered < Self.lengthProbeBudget {
                let seconds = probe.soundingSeconds(channel: note.channel, key: note.key, velocity: velocity, limit: Self.lengthProbeLimit)
                lengths[sound] = seconds
                lengthSecondsRendered += seconds
            }
            return lengths[sound]
        }
        probe.reset(songMode: modeDetection.mode)
        for step in steps {
            let event = step.event
            let track = Int(step.track)
            switch event.status {
            case 0xFF:
                ports[track] = Self.port(in: song.file.tracks[track].payload(of: event))
            case 0x80...0xEF:
                let channel = ports[track] * 16 + Int(event.channel)
                let kind = event.status & 0xF0
                guard kind == 0x80 || kind == 0x90 else {
                    if kind == 0xB0, Self.joinsKeys(controller: event.data1, value: event.data2) { result.wholeChannels |= 1 << UInt64(channel) }
                    probe.send(status: event.status, channel: channel, data1: event.data1, data2: event.data2)
                    continue
                }
                let slot = channel * 128 + Int(event.data1 & 0x7F)
                release(slot, at: step.frame)
                guard kind == 0x90, event.data2 > 0 else { continue }
                let preset = probe.program(channel: channel)
                let note = ProbedNote(channel: channel, bank: preset.bank, program: preset.program, key: event.data1, loudness: event.data2 >> 4)
                var profile: VoiceProfile
                if let seen = known[note] {
                    profile = seen
                } else {
                    profile = probe.voiceProfile(channel: channel, key: event.data1, velocity: event.data2)
                    if !profile.loops, profile.voices > 0 { profile.soundingSeconds = soundingSeconds(of: note, velocity: event.data2) }
                    known[note] = profile
                }
                profiles[slot] = profile
                downAt[slot] = step.frame
                if profile.exclusiveClass != 0 {
                    let member = classMembers[channel * 128 + profile.exclusiveClass, default: slot]
                    classMembers[channel * 128 + profile.exclusiveClass] = member
                    result.tie(member, slot)
                }
            default:
                assembler.add(status: event.status, packet: song.file.tracks[track].payload(of: event)) { message in
                    probe.sendSystemExclusive(message)
                }
            }
        }
        for slot in downAt.indices { release(slot, at: endFrame) }
        return result
    }

    /// The longest a one-shot sound is rendered to learn its length: longer ones count as this long.
    static let lengthProbeLimit = 4.0
    /// The seconds of one-shot sounds rendered to learn their lengths, at most, for one song
    /// (about 20 ms at 0.15 ms a voice-second without interpolation); the sounds left after it
    /// count as 1.5 s (``VoiceProfile/cost(heldFor:)``). A drum kit takes a few dozen seconds.
    static let lengthProbeBudget = 120.0

    /// Whether a controller makes a channel's keys act on one another: portamento on (65) and
    /// portamento control (84) glide from another key, legato (68) and mono mode (126) join notes.
    static func joinsKeys(controller: UInt8, value: UInt8) -> Bool {
        switch controller {
        case 65, 68: value >= 64
        case 84, 126: true
        default: false
        }
    }

    /// A note as a probe tells its cost: on a channel with a preset, at a key and a loudness.
    private struct ProbedNote: Hashable {
        var channel: Int
        var bank: Int
        var program: Int
        var key: UInt8
        /// The velocity's top 3 bits: layers split by velocity start other voices.
        var loudness: UInt8
    }

    /// The port a port meta event selects; a synthesizer has 4 (64 channels), so port 4 is 0 again.
    static func port(in payload: ArraySlice<UInt8>) -> Int {
        Int(payload.first ?? 0) % (Synthesizer.channelCount / 16)
    }

    /// Whether the song is over: every event sent and the song's length rendered, or its final fade ended.
    public var isAtEnd: Bool { hasFadedOut || cursor == steps.count && position >= endFrame && !isAtLoopEnd }

    /// Whether the loop jumps back at its end (once more at least).
    private var loopGoesOn: Bool {
        guard loop != nil else { return false }
        guard let passes = loopSettings.passes else { return true }
        return pass < passes || fadeFrames > 0
    }

    /// How many passes the loop plays in all: 1 without a loop, `nil` for ever.
    public var passCount: Int? { loop == nil ? 1 : loopSettings.passes }

    /// Takes up `other`'s pass through the loop: for a sequencer that goes on from where `other`
    /// is (a song split while it plays), and must play as many passes more.
    public func continuePass(of other: Sequencer) {
        pass = other.pass
    }

    /// The frame where the song's loop ends and jumps back to its start; nil without a loop. Never
    /// changes, so another thread may read it while this one renders.
    public var loopEndFrame: Int64? { loop?.endFrame }

    /// Output frames until the song reaches `frame` at the tempo now, 0 once it is there; a loop
    /// jumping back on the way is not counted.
    public func outputFrames(until frame: Int64) -> Int {
        let frames = (Double(frame) - exactPosition) / synthesizer.performance.tempo
        return frames > 0 ? Int(min(frames.rounded(.up), Double(Int32.max))) : 0
    }

    /// Output frames from here to the end at the tempo now; `nil` when the loop plays for ever.
    public var framesToEnd: Int64? {
        guard !hasFadedOut else { return 0 }
        let tempo = synthesizer.performance.tempo
        if let fadeRemaining { return Int64(fadeRemaining) }
        guard let loop, loopGoesOn else { return Int64((Double(max(0, endFrame - position)) / tempo).rounded(.up)) }
        guard let passes = loopSettings.passes else { return nil }
        let body = Double(loop.endFrame - loop.startFrame)
        let songFrames = Double(max(0, loop.endFrame - position)) + body * Double(max(0, passes - pass))
        return Int64((songFrames / tempo).rounded(.up)) + Int64(fadeFrames)
    }

    /// Renders `frames` interleaved stereo frames, sending each event when its frame comes. The
    /// first render of a sequencer not yet rewound or sought starts it: the synthesizer is reset
    /// for the song's standard.
    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        render(into: buffer, frames: frames, tempo: synthesizer.performance.tempo)
    }

    /// Renders as ``render(into:frames:)`` does, at the listener's `tempo` read once for every
    /// part of a split song: parts that read it apart could see a change at different frames, and
    /// drift apart for good.
    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int, tempo: Double) {
        render(into: .mix(buffer), frames: frames, tempo: tempo)
    }

    /// Renders as ``render(into:frames:)`` does, each of the synthesizer's outputs into its own
    /// planes of `stems` (``Synthesizer/render(into:at:frames:)``), from their first frame.
    public func render(into stems: StemBuffers, frames: Int) {
        render(into: .stems(stems), frames: frames, tempo: synthesizer.performance.tempo)
    }

    private func render(into output: Output, frames: Int, tempo: Double) {
        if !hasStarted { rewind() }
        synthesizer.followPerformance()
        var done = 0
        while done < frames {
            if hasFadedOut {
                output.silence(from: done, frames: frames - done)
                return
            }
            if let loop, isAtLoopEnd { jumpBack(to: loop) }
            let limit = loop.map { loopGoesOn && position < $0.endFrame ? $0.endFrame : Int64.max } ?? Int64.max
            while cursor < steps.count, steps[cursor].frame <= position, steps[cursor].frame < limit {
                apply(steps[cursor])
                cursor += 1
            }
            let nextFrame = min(cursor < steps.count ? steps[cursor].frame : Int64.max, limit)
            let untilNext = nextFrame == Int64.max ? Int.max : Int(clamping: Int64(((Double(nextFrame) - exactPosition) / tempo).rounded(.up)))
            var chunk = min(frames - done, max(1, untilNext))
            if let remaining = fadeRemaining { chunk = min(chunk, max(1, remaining)) }
            output.render(synthesizer, from: done, frames: chunk)
            if fadeRemaining != nil { fade(output, from: done, frames: chunk) }
            done += chunk
            exactPosition += Double(chunk) * tempo
            position = Int64(exactPosition.rounded(.down))
            if limit != Int64.max, exactPosition >= Double(limit) { isAtLoopEnd = true }
        }
    }

    /// The loop's end is reached: back to its start, with no gap. The voices sounding play on
    /// (releases and reverb carry over the seam, as they would in the music); the notes still held
    /// are let go, as their note offs lie beyond the loop's end; the controllers and programs are
    /// set as the loop's start has them. After the last pass, the fade starts.
    private func jumpBack(to loop: Loop) {
        isAtLoopEnd = false
        if let passes = loopSettings.passes, pass >= passes, fadeRemaining == nil { fadeRemaining = fadeFrames }
        pass += 1
        synthesizer.releaseHeldNotes()
        loop.stateAtStart.send(to: synthesizer)
        cursor = loop.startCursor
        exactPosition = Double(loop.startFrame) + (exactPosition - Double(loop.endFrame))
        position = Int64(exactPosition.rounded(.down))
    }

    /// Scales what was just rendered by the fade, which falls as the square of the time left: a
    /// fade that sounds even to the ear. At its end the song is over and its voices are cut,
    /// unheard at gain 0.
    private func fade(_ output: Output, from start: Int, frames: Int) {
        guard let remaining = fadeRemaining else { return }
        let total = Float(max(fadeFrames, 1))
        output.scale(from: start, frames: frames) { frame in
            let left = Float(max(remaining - frame, 0)) / total
            return left * left
        }
        fadeRemaining = remaining - frames
        if remaining - frames <= 0 {
            hasFadedOut = true
            synthesizer.silence()
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
        return chaser.plan(frame: target, cursor: cursor, sequencer: planner)
    }

    /// Makes a seek planned by ``plan(seekingTo:chaseNotes:)``: resets the synthesizer (voices
    /// sounding are cut) and sends the plan's messages, a number bounded whatever the song's
    /// length, without allocating: fit for the audio thread.
    public func seek(following plan: SeekPlan) {
        precondition(plan.sequencer == planner, "a seek planned for another sequencer")
        restart(at: plan.cursor, frame: plan.frame, trackPorts: plan.trackPorts)
        // A part strikes again only its own keys' notes.
        plan.send(to: synthesizer) { channel, key in owners.isEmpty || owners[channel * 128 + Int(key & 0x7F)] == part }
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
        exactPosition = Double(frame)
        // A seek calls off the final fade: the listener wants to hear the song there.
        fadeRemaining = nil
        hasFadedOut = false
        isAtLoopEnd = false
        if frame == 0 { pass = 1 }
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
            let channel = trackPorts[track] * 16 + Int(event.channel)
            // A part plays its own keys' notes (and their pressure); every other message is everyone's.
            if !owners.isEmpty, event.status & 0xF0 <= 0xA0, owners[channel * 128 + Int(event.data1 & 0x7F)] != part { return }
            synthesizer.send(status: event.status, channel: channel, data1: event.data1, data2: event.data2)
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

extension Sequencer {
    /// Where a render goes: the synthesizer's mix, as interleaved stereo, or its stems.
    private enum Output {
        case mix(UnsafeMutablePointer<Float>)
        case stems(StemBuffers)

        func render(_ synthesizer: Synthesizer, from frame: Int, frames: Int) {
            switch self {
            case .mix(let buffer): synthesizer.render(into: buffer + 2 * frame, frames: frames)
            case .stems(let stems): synthesizer.render(into: stems, at: frame, frames: frames)
            }
        }

        func silence(from frame: Int, frames: Int) {
            switch self {
            case .mix(let buffer): (buffer + 2 * frame).update(repeating: 0, count: 2 * frames)
            case .stems(let stems): stems.clear(from: frame, frames: frames)
            }
        }

        /// Scales `frames` frames from `frame`, the i-th of them by `gain(i)`.
        func scale(from frame: Int, frames: Int, by gain: (Int) -> Float) {
            switch self {
            case .mix(let buffer):
                for index in 0..<frames {
                    let factor = gain(index)
                    buffer[2 * (frame + index)] *= factor
                    buffer[2 * (frame + index) + 1] *= factor
                }
            case .stems(let stems): stems.scale(from: frame, frames: frames, by: gain)
            }
        }
    }
}
