import Foundation
import SMF
import SystemPackage
import TestSupport
import Testing

/// A file large enough to be read on all cores, its tracks' bytes given back as they are read:
/// what is read from disk is exactly what is read from the same bytes in memory.
@Suite struct LargeFileReadTests {
    @Test func aLargeFileReadFromDiskEqualsItsBytesRead() throws {
        var tracks: [Track] = []
        for channel in UInt8(0)..<6 {
            var track = Track()
            track.append(.meta(.text(.trackName, Array("Part \(channel)".utf8))), atTick: 0)
            for step in 0..<40_000 {
                let tick = UInt32(step) * 60
                let note = 40 + UInt8((step * 7 + Int(channel)) % 48)
                track.append(.noteOn(channel: channel, note: note, velocity: 64 + UInt8(step % 60)), atTick: tick)
                track.append(.noteOff(channel: channel, note: note, velocity: 0), atTick: tick + 50)
            }
            track.append(.meta(.endOfTrack), atTick: 40_000 * 60)
            tracks.append(track)
        }
        let file = MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: tracks)
        let bytes = SMFWriter().encode(file)
        try #require(bytes.count > 1 << 20, "\(bytes.count) bytes: too small to be read on all cores")
        let folder = try TemporaryFolder()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("large.mid")))
        let fromDisk = try SMFReader().read(path: folder.filePath("large.mid")).file
        let fromMemory = try SMFReader().read(bytes).file
        #expect(fromDisk == fromMemory)
        #expect(fromDisk == file)
    }
}
