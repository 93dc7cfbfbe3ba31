import Testing

@testable import SMF

struct SongSummaryTests {
    /// Drum parts as the song's standard makes them: a GS rhythm part on channel 11, an XG kit on
    /// channel 1, and channel 10 turned melodic by GS; a wrong checksum is reported, not obeyed.
    @Test func drumPartsFollowTheStandard() {
        func gs(_ address: [UInt8], _ data: [UInt8], checksumOffset: UInt8 = 0) -> [UInt8] {
            let sum = (address + data).reduce(0) { $0 + Int($1) }
            return [0x41, 0x10, 0x42, 0x12] + address + data + [(UInt8((128 - sum % 128) % 128) + checksumOffset) & 0x7F, 0xF7]
        }
        func song(_ messages: [[UInt8]], bank: UInt8 = 0, channels: [UInt8]) -> SongSummary {
            var track = Track()
            for message in messages { track.append(.systemExclusive(message), atTick: 0) }
            for channel in channels {
                track.append(.controlChange(channel: channel, controller: 0, value: bank), atTick: 0)
                track.append(.programChange(channel: channel, program: 0), atTick: 0)
            }
            for channel in channels { track.append(.noteOn(channel: channel, note: 38, velocity: 90), atTick: 10) }
            track.append(.meta(.endOfTrack), atTick: 480)
            return SongSummary(song: Song(file: MIDIFile(format: .singleTrack, timebase: .musical(ticksPerQuarterNote: 480), tracks: [track])))
        }
        let rhythm = song([gs([0x40, 0x00, 0x7F], [0x00]), gs([0x40, 0x1A, 0x15], [0x01]), gs([0x40, 0x10, 0x15], [0x00])], channels: [9, 10])
        #expect(rhythm.midiMode.mode == .gs)
        #expect(rhythm.channels.map(\.isPercussion) == [false, true])
        let xg = song([], bank: 127, channels: [0])
        #expect(xg.midiMode.mode == .xg && xg.channels.map(\.isPercussion) == [true])
        let damaged = song([gs([0x40, 0x1A, 0x15], [0x01], checksumOffset: 1)], channels: [10])
        #expect(damaged.channels.map(\.isPercussion) == [false])
        #expect(damaged.midiMode.badChecksums == [.init(track: 1, seconds: 0)])
    }

    /// The same GS song written three ways: one track; the set-up in a first track and each
    /// channel in a track of its own (each track read on its own); a channel's bank select and
    /// its program change in different tracks (the tracks merged). All three read alike.
    @Test func channelsReadAlikeWhateverTheirTracks() {
        let rhythmPart: [UInt8] = [0x41, 0x10, 0x42, 0x12, 0x40, 0x1A, 0x15, 0x01, 0x10, 0xF7]
        func file(_ tracks: [[(tick: UInt32, message: MIDIMessage)]]) -> SongSummary {
            let built = tracks.map { events in
                var track = Track()
                for event in events.enumerated().sorted(by: { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }) {
                    track.append(event.element.message, atTick: event.element.tick)
                }
                track.append(.meta(.endOfTrack), atTick: 960)
                return track
            }
            return SongSummary(
                song: Song(file: MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: built)))
        }
        let setUp: [(tick: UInt32, message: MIDIMessage)] = [(0, .systemExclusive(rhythmPart))]
        let drums: [(tick: UInt32, message: MIDIMessage)] = [
            (5, .programChange(channel: 10, program: 0)), (10, .noteOn(channel: 10, note: 38, velocity: 90)),
        ]
        let piano: [(tick: UInt32, message: MIDIMessage)] = [
            (0, .controlChange(channel: 0, controller: 0, value: 8)), (5, .programChange(channel: 0, program: 4)),
            (10, .noteOn(channel: 0, note: 60, velocity: 90)),
        ]
        let oneTrack = file([setUp + piano + drums])
        let trackEach = file([setUp, piano, drums])
        let split = file([setUp, [piano[0]], Array(piano.dropFirst()) + drums])
        for summary in [oneTrack, trackEach, split] {
            #expect(summary.channels.map(\.channel) == [1, 11])
            #expect(summary.channels.map(\.isPercussion) == [false, true])
            #expect(
                summary.channels[0].programs == [SongSummary.ProgramSelection(program: 4, bankMSB: 8, bankLSB: 0, instrument: "Electric Piano 1")])
        }
        #expect(trackEach.tracks.map(\.channels) == [[], [1], [11]])
    }

    @Test func summarizesWhatAPersonAsks() throws {
        var conductor = Track()
        conductor.append(.meta(.text(.trackName, Array("Ballade No.4".utf8))), atTick: 0)
        conductor.append(.meta(.text(.copyright, Array("Public domain".utf8))), atTick: 0)
        conductor.append(
            .meta(.timeSignature(numerator: 6, denominatorPower: 3, clocksPerMetronomeClick: 36, thirtySecondNotesPerQuarter: 8)), atTick: 0)
        conductor.append(.meta(.keySignature(sharpsOrFlats: -4, isMinor: true)), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 750_000)), atTick: 960)
        conductor.append(.meta(.endOfTrack), atTick: 1920)
        var piano = Track()
        piano.append(.meta(.text(.trackName, Array("ピアノ".utf8))), atTick: 0)
        piano.append(.controlChange(channel: 0, controller: 0, value: 1), atTick: 0)
        piano.append(.controlChange(channel: 0, controller: 32, value: 2), atTick: 0)
        piano.append(.programChange(channel: 0, program: 0), atTick: 0)
        piano.append(.noteOn(channel: 0, note: 60, velocity: 80), atTick: 0)
        piano.append(.noteOff(channel: 0, note: 60, velocity: 0), atTick: 480)
        piano.append(.noteOn(channel: 9, note: 36, velocity: 80), atTick: 480)
        piano.append(.noteOn(channel: 9, note: 36, velocity: 0), atTick: 500)
        piano.append(.meta(.text(.lyric, Array("Hel".utf8))), atTick: 500)
        piano.append(.meta(.text(.lyric, Array("lo\r".utf8))), atTick: 600)
        let file = MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: [conductor, piano])
        let summary = SongSummary(song: Song(file: file))
        #expect(summary.title == "Ballade No.4")
        #expect(summary.durationSeconds == 1.0 + 1.5)
        #expect(summary.noteCount == 2)
        #expect(summary.tracks.map(\.name) == ["Ballade No.4", "ピアノ"])
        #expect(summary.tracks[1].channels == [1, 10])
        #expect(summary.channels.map(\.channel) == [1, 10])
        #expect(summary.channels[0].programs == [.init(program: 0, bankMSB: 1, bankLSB: 2, instrument: "Acoustic Grand Piano")])
        #expect(summary.channels[1].isPercussion)
        #expect(summary.tempo == .init(initialBPM: 120, minimumBPM: 80, maximumBPM: 120, changeCount: 1))
        #expect(summary.timeSignatures.map { "\($0.numerator)/\($0.denominator)" } == ["6/8"])
        #expect(summary.keySignatures.map(\.name) == ["F minor"])
        #expect(summary.copyright == "Public domain")
        #expect(summary.lyrics == "Hello")
    }

    @Test func namesAllGeneralMIDIInstrumentsAndKeys() {
        let names = (0...127).map { GeneralMIDI.instrumentName(program: UInt8($0)) }
        #expect(Set(names).count == 128)
        #expect(names[40] == "Violin" && names[127] == "Gunshot")
        #expect(SongSummary.keyName(sharpsOrFlats: 0, isMinor: false) == "C major")
        #expect(SongSummary.keyName(sharpsOrFlats: 7, isMinor: true) == "A♯ minor")
        #expect(SongSummary.keyName(sharpsOrFlats: -7, isMinor: false) == "C♭ major")
    }
}
