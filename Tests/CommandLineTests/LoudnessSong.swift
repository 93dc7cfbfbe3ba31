import SMF

/// Songs for loudness: the same music (an organ's chords over a bass, with drums on channel 10)
/// at a channel volume given, so that two of them are as many LU apart as their volumes make:
/// FluidSynth's volume curve is 40·log10(volume/127) dB.
enum LoudnessSong {
    /// `seconds` of music (at least 4, for the loudness gate's blocks) at channel volume `volume`,
    /// after `restBars` bars (2 s each) of silence: played one after another, such songs are told
    /// apart by the silence between them.
    static func file(volume: UInt8, seconds: Int = 6, restBars: Int = 0) -> [UInt8] {
        var conductor = Track()
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.meta(.endOfTrack), atTick: 0)
        var music = Track()
        for channel: UInt8 in [0, 1, 9] { music.append(.controlChange(channel: channel, controller: 7, value: volume), atTick: 0) }
        music.append(.programChange(channel: 0, program: 19), atTick: 0)
        music.append(.programChange(channel: 1, program: 32), atTick: 0)
        let chords: [[UInt8]] = [[60, 64, 67], [62, 65, 69], [59, 62, 67], [60, 64, 67]]
        let bars = seconds / 2 + restBars
        for bar in restBars..<bars {
            let start = UInt32(bar * 1920)
            let chord = chords[bar % chords.count]
            for key in chord { music.append(.noteOn(channel: 0, note: key, velocity: 100), atTick: start) }
            music.append(.noteOn(channel: 1, note: chord[0] - 24, velocity: 100), atTick: start)
            for beat in 0..<4 {
                let tick = start + UInt32(beat * 480)
                music.append(.noteOn(channel: 9, note: beat % 2 == 0 ? 36 : 38, velocity: 110), atTick: tick)
                music.append(.noteOn(channel: 9, note: 42, velocity: 90), atTick: tick)
                music.append(.noteOff(channel: 9, note: beat % 2 == 0 ? 36 : 38, velocity: 0), atTick: tick + 240)
                music.append(.noteOff(channel: 9, note: 42, velocity: 0), atTick: tick + 240)
            }
            for key in chord { music.append(.noteOff(channel: 0, note: key, velocity: 0), atTick: start + 1900) }
            music.append(.noteOff(channel: 1, note: chord[0] - 24, velocity: 0), atTick: start + 1900)
        }
        music.append(.meta(.endOfTrack), atTick: UInt32(bars * 1920))
        return SMFWriter().encode(
            MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [conductor, music]))
    }

    /// The volume 10 LU below full volume (127).
    static let tenBelow: UInt8 = 71
}
