import SystemPackage
import Testing

@testable import SMF

/// A track's channel use, counted as it is made, against a count of its events made here.
@Suite struct TrackChannelUseTests {
    /// What `TrackChannelUse` should hold, counted from the events one by one.
    struct Counted: Equatable {
        var channels: UInt16 = 0
        var noteCounts = [Int](repeating: 0, count: 16)
        var firstNoteTick: UInt32?
        var settingIndices: [Int] = []

        init(_ track: Track) {
            for (index, event) in track.events.enumerated() where event.status < 0xF0 {
                let channel = Int(event.status & 0x0F)
                channels |= 1 << channel
                if event.status & 0xF0 == 0x90, event.data2 & 0x7F > 0 {
                    noteCounts[channel] += 1
                    if firstNoteTick == nil { firstNoteTick = event.tick }
                }
                let isBankSelect = event.status & 0xF0 == 0xB0 && [0, 32].contains(event.data1 & 0x7F)
                if isBankSelect || event.status & 0xF0 == 0xC0 { settingIndices.append(index) }
            }
        }

        init(_ use: TrackChannelUse) {
            channels = use.channels
            noteCounts = (0..<16).map { Int(use.noteCounts[$0]) }
            firstNoteTick = use.firstNoteTick
            settingIndices = use.settingIndices
        }
    }

    @Test("every track of the openmsx songs, as parsed, holds what its events count")
    func parsedTracksCountTheirEvents() throws {
        let names = OpenMSXCorpus.fileNames
        #expect(names.count > 10, "openttd-openmsx is missing")
        var notes = 0
        for name in names {
            let file = try SMFReader().read(path: FilePath(OpenMSXCorpus.directory + "/" + name)).file
            for (number, track) in file.tracks.enumerated() {
                let counted = Counted(track.channelUse)
                #expect(counted == Counted(track), "\(name), track \(number + 1)")
                notes += counted.noteCounts.reduce(0, +)
            }
        }
        #expect(notes > 10_000, "the songs have notes to count")
    }

    @Test("a track made by appending holds what it counts, and the same as when it is written and read back")
    func appendedTrackCountsAsParsed() throws {
        var track = Track()
        track.append(.controlChange(channel: 9, controller: 0, value: 120), atTick: 0)
        track.append(.controlChange(channel: 9, controller: 7, value: 100), atTick: 0)
        track.append(.programChange(channel: 9, program: 16), atTick: 0)
        track.append(.noteOn(channel: 0, note: 60, velocity: 0), atTick: 5)
        track.append(.noteOn(channel: 9, note: 36, velocity: 90), atTick: 10)
        track.append(.controlChange(channel: 3, controller: 32, value: 1), atTick: 12)
        track.append(.noteOn(channel: 3, note: 64, velocity: 1), atTick: 20)
        track.append(.meta(.endOfTrack), atTick: 30)
        let use = Counted(track.channelUse)
        #expect(use == Counted(track))
        #expect(use.channels == 1 << 9 | 1 << 0 | 1 << 3 && use.noteCounts[9] == 1 && use.noteCounts[3] == 1 && use.noteCounts[0] == 0)
        #expect(use.firstNoteTick == 10 && use.settingIndices == [0, 2, 5])
        let written = SMFWriter().encode(MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 96), tracks: [track]))
        #expect(try SMFReader().read(written).file.tracks == [track])
    }
}
