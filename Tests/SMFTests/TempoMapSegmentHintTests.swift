import Testing

@testable import SMF

/// `seconds(atTick:segmentHint:)` is a faster way to the same answer as `seconds(atTick:)`.
struct TempoMapSegmentHintTests {
    /// A tempo change every beat for 64 beats, each tempo different.
    static let tempoMap: TempoMap = {
        var track = Track()
        for beat in 0..<64 {
            track.append(.meta(.tempo(microsecondsPerQuarterNote: UInt32(300_000 + beat * 7_919))), atTick: UInt32(beat * 96))
        }
        track.append(.meta(.endOfTrack), atTick: 64 * 96)
        return Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 96), tracks: [track])).tempoMap
    }()

    @Test func givesTheSameTimesForTicksInOrderOrNot() {
        let map = Self.tempoMap
        #expect(map.segments.count == 64)
        var hint = 0
        for tick in UInt64(0)...UInt64(70 * 96) {
            #expect(map.seconds(atTick: tick, segmentHint: &hint) == map.seconds(atTick: tick), "tick \(tick)")
            #expect(map.segments[hint].tick <= tick && (hint == 63 || map.segments[hint + 1].tick > tick), "tick \(tick): segment \(hint)")
        }
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let tick = (state >> 33) % 7_000
            #expect(map.seconds(atTick: tick, segmentHint: &hint) == map.seconds(atTick: tick), "tick \(tick)")
        }
    }

    @Test func anyHintIsSafe() {
        let map = Self.tempoMap
        for start in [Int.min, -1, 0, 63, 64, 1_000, Int.max] {
            var hint = start
            #expect(map.seconds(atTick: 500, segmentHint: &hint) == map.seconds(atTick: 500), "hint \(start)")
            #expect(hint == 5)
        }
    }
}
