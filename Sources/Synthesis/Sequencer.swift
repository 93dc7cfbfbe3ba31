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
