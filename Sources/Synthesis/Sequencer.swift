import SMF

/// Feeds a song's events into a synthesizer at their sample positions while it renders.
///
/// Rendering stops at each event's frame, applies the event and goes on, so
/// whatever the buffer size, an event lands within one FluidSynth block
/// (64 frames) of its exact time. Nothing here allocates while rendering.
public final class Sequencer {
    /// An event the synthesizer acts on, at its frame.
    private struct Step {
        var frame: Int64
        var event: TrackEvent
        var track: Int32
    }

    public let song: Song
    public let synthesizer: Synthesizer
    private let steps: [Step]
    /// The frame of the song's last event (End of Track included).
    public let endFrame: Int64
    /// The next frame to render.
    public private(set) var position: Int64 = 0
    private var cursor = 0
    /// Each track's MIDI port (from its port meta events), which selects a block of 16 channels.
    private var trackPorts: [Int]
    /// A system exclusive message split into `F0` and `F7` packets, gathered until its `F7`.
    private var pendingSystemExclusive: [UInt8]
    /// While seeking: the velocity of each note held, by channel × 128 + key (0 when not held).
    /// Kept here so that a seek on the audio thread allocates nothing.
    private var heldVelocities: [UInt8]

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
        trackPorts = Array(repeating: 0, count: file.tracks.count)
        pendingSystemExclusive = []
        pendingSystemExclusive.reserveCapacity(1 << 16)
        heldVelocities = Array(repeating: 0, count: Synthesizer.channelCount * 128)
    }

    /// Whether every event has been sent and the song's length rendered.
    public var isAtEnd: Bool { cursor == steps.count && position >= endFrame }

    /// Renders `frames` interleaved stereo frames, sending each event when its frame comes.
    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
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

    /// Moves to a frame, with the synthesizer in the state playing from the
    /// start would have left it: programs, banks, every controller (RPN and
    /// NRPN included, replayed in order), pitch bend, pressure, system exclusive
    /// and ports, but no note. Voices sounding before the seek are cut.
    /// With `chaseNotes`, notes held across the target are struck again there
    /// with their velocity, so that sustained chords and pads keep sounding.
    public func seek(toFrame target: Int64, chaseNotes: Bool = false) {
        synthesizer.reset()
        for index in trackPorts.indices { trackPorts[index] = 0 }
        pendingSystemExclusive.removeAll(keepingCapacity: true)
        for index in heldVelocities.indices { heldVelocities[index] = 0 }
        let target = max(0, target)
        var index = 0
        while index < steps.count, steps[index].frame < target {
            let step = steps[index]
            let event = step.event
            let key = channel(of: step) * 128 + Int(event.data1 & 0x7F)
            switch event.status & 0xF0 {
            case 0x90 where event.startsNote: heldVelocities[key] = event.data2 & 0x7F
            case 0x80, 0x90: heldVelocities[key] = 0
            // Key pressure belongs to notes that are not sounding any more.
            case 0xA0: break
            default: apply(step)
            }
            index += 1
        }
        cursor = index
        position = target
        guard chaseNotes else { return }
        for (key, velocity) in heldVelocities.enumerated() where velocity != 0 {
            synthesizer.send(status: 0x90, channel: key / 128, data1: UInt8(key % 128), data2: velocity)
        }
    }

    /// Moves to a time in seconds (see ``seek(toFrame:chaseNotes:)``).
    public func seek(toSeconds seconds: Double, chaseNotes: Bool = false) {
        seek(toFrame: Int64((seconds * synthesizer.configuration.sampleRate).rounded()), chaseNotes: chaseNotes)
    }

    private func channel(of step: Step) -> Int {
        trackPorts[Int(step.track)] * 16 + Int(step.event.channel)
    }

    private func apply(_ step: Step) {
        let event = step.event
        let track = Int(step.track)
        switch event.status {
        case 0x80...0xEF:
            synthesizer.send(status: event.status, channel: trackPorts[track] * 16 + Int(event.channel), data1: event.data1, data2: event.data2)
        case 0xFF:
            // Only port changes are kept among meta events.
            let port = song.file.tracks[track].payload(of: event).first ?? 0
            trackPorts[track] = Int(port) % (Synthesizer.channelCount / 16)
        default:
            applySystemExclusive(status: event.status, bytes: song.file.tracks[track].payload(of: event))
        }
    }

    /// An `F0` event starts a message; `F7` events continue one that has not
    /// ended yet, and are otherwise escapes of raw bytes a synthesizer ignores.
    private func applySystemExclusive(status: UInt8, bytes: ArraySlice<UInt8>) {
        if status == 0xF0 {
            pendingSystemExclusive.removeAll(keepingCapacity: true)
        } else if pendingSystemExclusive.isEmpty {
            return
        }
        let room = pendingSystemExclusive.capacity - pendingSystemExclusive.count
        pendingSystemExclusive.append(contentsOf: bytes.prefix(room))
        guard pendingSystemExclusive.last == 0xF7 else {
            // A message that fills the whole buffer is not a real device's; drop it.
            if pendingSystemExclusive.count == pendingSystemExclusive.capacity { pendingSystemExclusive.removeAll(keepingCapacity: true) }
            return
        }
        pendingSystemExclusive.withUnsafeBufferPointer { message in
            synthesizer.sendSystemExclusive(UnsafeBufferPointer(rebasing: message.dropLast()))
        }
        pendingSystemExclusive.removeAll(keepingCapacity: true)
    }
}
