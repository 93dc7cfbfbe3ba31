import SMF

/// The benchmark's large, deterministic Standard MIDI File.
///
/// Format 1, 480 ticks per quarter note: a conductor track (name, time
/// signature, a tempo change every two bars) and `tracks - 1` note tracks, one
/// channel each (drums skipped). A note track plays chords of 1–4 notes; a note
/// ends with a note-on of velocity 0, so within a chord the writer uses running
/// status. Controllers (modulation, expression, sustain) come every few chords
/// and pitch-bend sweeps every few more, which breaks and restarts running status
/// the way real files do.
struct BenchmarkFile {
    var notes: Int = 2_000_000
    var tracks: Int = 16
    var seed: UInt64 = 0x5EED_0F_5F3F

    static let ticksPerQuarterNote: UInt16 = 480

    func make() -> MIDIFile {
        precondition(tracks >= 2, "a conductor track and at least one note track")
        var random = XorShiftRandom(seed: seed)
        let noteTracks = tracks - 1
        var body: [Track] = []
        for index in 0..<noteTracks {
            let share = notes / noteTracks + (index < notes % noteTracks ? 1 : 0)
            body.append(noteTrack(index: index, notes: share, random: &random))
        }
        let end = body.map(\.lengthInTicks).max() ?? 0
        return MIDIFile(
            format: .multipleTracksSynchronous,
            timebase: .musical(ticksPerQuarterNote: Self.ticksPerQuarterNote),
            tracks: [conductor(until: end, random: &random)] + body)
    }

    func encoded() -> [UInt8] {
        SMFWriter().encode(make())
    }

    private func conductor(until end: UInt32, random: inout XorShiftRandom) -> Track {
        var track = Track()
        track.append(.meta(.text(.trackName, Array("smfplay parse benchmark".utf8))), atTick: 0)
        track.append(
            .meta(
                .timeSignature(
                    numerator: 4, denominatorPower: 2, clocksPerMetronomeClick: 24,
                    thirtySecondNotesPerQuarter: 8)), atTick: 0)
        let twoBars = UInt32(Self.ticksPerQuarterNote) * 8
        var tick: UInt32 = 0
        while tick <= end {
            // 60–200 beats per minute.
            let bpm = random.value(in: 60...200)
            track.append(.meta(.tempo(microsecondsPerQuarterNote: UInt32(60_000_000 / bpm))), atTick: tick)
            tick += twoBars
        }
        track.append(.meta(.endOfTrack), atTick: end)
        return track
    }

    private func noteTrack(index: Int, notes: Int, random: inout XorShiftRandom) -> Track {
        let channel = UInt8(index < 9 ? index : index + 1) & 0x0F
        var track = Track()
        track.append(.meta(.text(.trackName, Array("Part \(index + 1)".utf8))), atTick: 0)
        track.append(.programChange(channel: channel, program: UInt8(random.below(128))), atTick: 0)
        track.append(.controlChange(channel: channel, controller: 7, value: 100), atTick: 0)
        var tick: UInt32 = 0
        var remaining = notes
        var chord = 0
        let base = 36 + random.below(36)
        while remaining > 0 {
            tick += UInt32([0, 0, 60, 120, 240][random.below(5)])
            if chord % 4 == 3 {
                let controller: UInt8 = [1, 11, 64][random.below(3)]
                track.append(.controlChange(channel: channel, controller: controller, value: UInt8(random.below(128))), atTick: tick)
            }
            let size = min(remaining, 1 + random.below(4))
            var pitches: [UInt8] = []
            var pitch = base + random.below(12)
            for _ in 0..<size {
                pitches.append(UInt8(pitch))
                pitch += 3 + random.below(4)
            }
            for pitch in pitches {
                track.append(.noteOn(channel: channel, note: pitch, velocity: UInt8(random.value(in: 40...127))), atTick: tick)
            }
            let length = UInt32([60, 120, 120, 240, 480][random.below(5)])
            if chord % 16 == 15 {
                // A bend up and back, in eight steps across the chord.
                for step in 1...8 {
                    let value = UInt16(8192 + (step <= 4 ? step : 8 - step) * 1024)
                    track.append(.pitchBend(channel: channel, value: value), atTick: tick + length * UInt32(step) / 9)
                }
            }
            tick += length
            for pitch in pitches {
                track.append(.noteOn(channel: channel, note: pitch, velocity: 0), atTick: tick)
            }
            remaining -= size
            chord += 1
        }
        track.append(.meta(.endOfTrack), atTick: tick)
        return track
    }
}
