import SMF

/// Songs built in code for the seek tests, at 480 ticks a quarter note and the default 120 bpm:
/// 960 ticks a second.
enum ChaseSongs {
    static func tick(_ seconds: Double) -> UInt32 { UInt32((seconds * 960).rounded()) }

    /// A song of one track per builder; each track ends with the last event of all.
    static func song(_ builders: [(inout Track) -> Void]) -> Song {
        var tracks = builders.map { build in
            var track = Track()
            build(&track)
            return track
        }
        let end = tracks.map(\.lengthInTicks).max() ?? 0
        for index in tracks.indices { tracks[index].append(.meta(.endOfTrack), atTick: end) }
        return Song(file: MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: tracks))
    }

    static func song(_ build: @escaping (inout Track) -> Void) -> Song {
        song([build])
    }

    static func control(_ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> MIDIMessage {
        .controlChange(channel: channel, controller: controller, value: value)
    }

    static let gmSystemOn: [UInt8] = [0x7E, 0x7F, 0x09, 0x01, 0xF7]
    static let gsReset: [UInt8] = [0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]
    static let xgSystemOn: [UInt8] = [0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]
}
