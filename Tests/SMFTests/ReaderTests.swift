import Testing

@testable import SMF

/// Every construct of the SMF specification the reader must understand.
struct ReaderTests {
    private func read(_ bytes: [UInt8]) throws -> SMFReader.Output {
        try SMFReader().read(bytes)
    }

    @Test(arguments: [(UInt16(0), MIDIFileFormat.singleTrack), (1, .multipleTracksSynchronous), (2, .multipleTracksAsynchronous)])
    func readsEachFormat(number: UInt16, format: MIDIFileFormat) throws {
        let tracks = number == 0 ? [[UInt8]()] : [[], []]
        let output = try read(RawSMF.file(format: number, tracks: tracks))
        #expect(output.file.format == format)
        #expect(output.file.tracks.count == tracks.count)
        #expect(output.warnings.isEmpty)
    }

    @Test(arguments: [(UInt8(0xE8), SMPTEFrameRate.fps24), (0xE7, .fps25), (0xE3, .fps29_97Drop), (0xE2, .fps30)])
    func readsSMPTEDivisions(highByte: UInt8, rate: SMPTEFrameRate) throws {
        let division = UInt16(highByte) << 8 | 40
        let output = try read(RawSMF.file(division: division, tracks: [[0x83, 0x60, 0x90, 60, 100]]))
        #expect(output.file.timebase == .smpte(rate, ticksPerFrame: 40))
        #expect(output.file.timebase.division == division)
        // 480 ticks at 40 ticks per frame are 12 frames; tempo events do not apply.
        let song = Song(file: output.file)
        #expect(abs(song.tempoMap.seconds(atTick: 480) - 12 / rate.framesPerSecond) < 1e-12)
    }

    @Test func readsEveryChannelMessageWithRunningStatus() throws {
        let events: [UInt8] = [
            0x00, 0x80, 60, 64, // note off
            0x00, 0x91, 61, 100, // note on, channel 2
            0x10, 62, 0, // running status: note on velocity 0
            0x00, 0xA2, 63, 30, // poly pressure
            0x00, 0xB3, 7, 90, // control change
            0x00, 10, 64, // running status control change
            0x00, 0xC4, 5, // program change
            0x00, 6, // running status program change (one data byte)
            0x00, 0xD5, 70, // channel pressure
            0x00, 0xE6, 0x00, 0x40, // pitch bend centre
            0x00, 0x7F, 0x7F, // running status pitch bend maximum
        ]
        let track = try read(RawSMF.file(tracks: [events])).file.tracks[0]
        let messages = track.events.dropLast().map(track.message(of:))
        #expect(
            messages == [
                .noteOff(channel: 0, note: 60, velocity: 64),
                .noteOn(channel: 1, note: 61, velocity: 100),
                .noteOn(channel: 1, note: 62, velocity: 0),
                .notePressure(channel: 2, note: 63, pressure: 30),
                .controlChange(channel: 3, controller: 7, value: 90),
                .controlChange(channel: 3, controller: 10, value: 64),
                .programChange(channel: 4, program: 5),
                .programChange(channel: 4, program: 6),
                .channelPressure(channel: 5, pressure: 70),
                .pitchBend(channel: 6, value: 8192),
                .pitchBend(channel: 6, value: 16383),
            ])
        #expect(track.events.map(\.tick).prefix(3) == [0, 0, 16])
        // Note-on with velocity 0 ends a note for playback; the raw event is kept.
        #expect(track.events[2].endsNote && !track.events[2].startsNote)
        #expect(track.events[2].status == 0x91 && track.events[2].data2 == 0)
    }

    @Test func keepsSystemExclusiveInBothFormsByteExact() throws {
        let gmReset: [UInt8] = [0x7E, 0x7F, 0x09, 0x01, 0xF7]
        let events: [UInt8] =
            [0x00, 0xF0, 0x05] + gmReset
            + [0x00, 0xF0, 0x03, 0x43, 0x12, 0x00] // first packet of a split message, no F7
            + [0x10, 0xF7, 0x02, 0x07, 0xF7] // continuation packet
            + [0x00, 0xF7, 0x02, 0xF3, 0x01] // escape: a song select sent as is
        let track = try read(RawSMF.file(tracks: [events])).file.tracks[0]
        #expect(
            track.events.dropLast().map(track.message(of:)) == [
                .systemExclusive(gmReset), .systemExclusive([0x43, 0x12, 0x00]), .escapedBytes([0x07, 0xF7]), .escapedBytes([0xF3, 0x01]),
            ])
        #expect(Array(track.payload(of: track.events[0])) == gmReset)
    }

    /// The summary, the lyrics and the tempo map find texts, tempos and system exclusive
    /// messages through `payloadEventIndices` alone: it must list exactly the events with bytes
    /// of their own, in order, whether the reader built the track or events were appended to it.
    @Test func listsEveryPayloadEventAndNoOther() throws {
        let events: [UInt8] =
            [0x00, 0xFF, 0x03, 0x02, 0x41, 0x42] // track name
            + [0x00, 0x90, 0x3C, 0x40, 0x10, 0x3E, 0x40] // note-on, then one in running status
            + [0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7] // GM reset
            + [0x10, 0x80, 0x3C, 0x00] + [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20] // note-off, tempo
            + [0x00, 0xF7, 0x02, 0xF3, 0x01] + [0x10, 0x80, 0x3E, 0x00] // escape, note-off
        var track = try read(RawSMF.file(tracks: [events])).file.tracks[0]
        let withBytes = { (track: Track) in track.events.indices.filter { !track.events[$0].isChannelMessage } }
        #expect(Array(track.payloadEventIndices) == withBytes(track))
        #expect(Array(track.payloadEventIndices).map { track.events[$0].status } == [0xFF, 0xF0, 0xFF, 0xF7, 0xFF])
        track.appendPayloadEvent(status: 0xFF, metaType: 0x01, bytes: Array("words".utf8), tick: 200)
        #expect(Array(track.payloadEventIndices) == withBytes(track))
        #expect(track.metaType(of: track.events[track.payloadEventIndices.last!]) == 0x01)
    }

    @Test func decodesEveryMetaEvent() throws {
        func meta(_ type: UInt8, _ data: [UInt8]) -> [UInt8] { [0x00, 0xFF, type] + RawSMF.vlq(UInt32(data.count)) + data }
        var events = meta(0x00, [0x00, 0x07])
        for kind in MetaEvent.TextKind.allCases { events += meta(kind.rawValue, Array("text \(kind.rawValue)".utf8)) }
        events +=
            meta(0x20, [9]) + meta(0x21, [1]) + meta(0x51, [0x07, 0xA1, 0x20]) + meta(0x54, [1, 2, 3, 4, 5])
            + meta(0x58, [6, 3, 24, 8]) + meta(0x59, [0xFD, 1]) + meta(0x7F, [0x00, 0x00, 0x41, 1]) + meta(0x4B, [1, 2])
        let track = try read(RawSMF.file(tracks: [events])).file.tracks[0]
        let metas = track.events.map { event -> MetaEvent? in
            if case .meta(let meta) = track.message(of: event) { return meta } else { return nil }
        }
        #expect(
            metas == [.sequenceNumber(7)] + MetaEvent.TextKind.allCases.map { .text($0, Array("text \($0.rawValue)".utf8)) } + [
                .channelPrefix(9), .port(1), .tempo(microsecondsPerQuarterNote: 500_000),
                .smpteOffset(hours: 1, minutes: 2, seconds: 3, frames: 4, hundredthsOfFrame: 5),
                .timeSignature(numerator: 6, denominatorPower: 3, clocksPerMetronomeClick: 24, thirtySecondNotesPerQuarter: 8),
                .keySignature(sharpsOrFlats: -3, isMinor: true), .sequencerSpecific([0x00, 0x00, 0x41, 1]),
                .unknown(type: 0x4B, data: [1, 2]), .endOfTrack,
            ])
        for meta in metas.compactMap({ $0 }) {
            #expect(MetaEvent(type: meta.encoded.type, data: meta.encoded.data) == meta)
        }
    }

    @Test func runningStatusSurvivesMetaEventsAndSystemExclusiveWarns() throws {
        let afterMeta: [UInt8] = [0x00, 0x90, 60, 100, 0x00, 0xFF, 0x01, 0x01, 0x41, 0x10, 60, 0]
        let output = try read(RawSMF.file(tracks: [afterMeta]))
        #expect(output.file.tracks[0].message(of: output.file.tracks[0].events[2]) == .noteOn(channel: 0, note: 60, velocity: 0))
        #expect(output.warnings.isEmpty)

        // System exclusive ends running status: a file that goes on with it is read with a warning.
        let afterSysEx: [UInt8] = [0x00, 0x90, 60, 100, 0x00, 0xF0, 0x01, 0xF7, 0x10, 60, 0]
        let resumed = try read(RawSMF.file(tracks: [afterSysEx]))
        #expect(resumed.file.tracks[0].message(of: resumed.file.tracks[0].events[2]) == .noteOn(channel: 0, note: 60, velocity: 0))
        #expect(resumed.warnings == [.runningStatusAfterSystemExclusive(track: 1, count: 1, offset: 14 + 8 + 9)])
    }

    @Test func unwrapsRIFFRMIDFiles() throws {
        let song = RawSMF.file(tracks: [[0x00, 0x90, 60, 100, 0x60, 60, 0]])
        let data = Array("data".utf8) + RawSMF.le32(UInt32(song.count)) + song
        let info = Array("LIST".utf8) + RawSMF.le32(4) + Array("INFO".utf8)
        let riff = Array("RIFF".utf8) + RawSMF.le32(UInt32(4 + data.count + info.count)) + Array("RMID".utf8) + data + info
        let wrapped = try read(riff)
        #expect(wrapped.file == (try read(song)).file)
        // The song is 33 bytes, written here without the pad byte RIFF wants after it: found all the same.
        #expect(wrapped.warnings == [.missingPadByte(id: "data", offset: 12)])
    }

    @Test("an RMID file's INFO title (INAM), before or after its data, is the song's title over its first track's name")
    func readsTheRMIDInfoTitle() throws {
        // The first track is named "Track name"; the INFO list's INAM says "Nocturne", NUL-ended.
        let song = RawSMF.file(tracks: [[0x00, 0xFF, 0x03, 10] + Array("Track name".utf8) + [0x00, 0x90, 60, 100, 0x60, 60, 0]])
        let data = RawSMF.riffChunk("data", song)
        let info = RawSMF.riffChunk(
            "LIST",
            Array("INFO".utf8) + RawSMF.riffChunk("ICOP", Array("(c)".utf8))
                + RawSMF.riffChunk("INAM", Array("Nocturne".utf8) + [0]))
        for chunks in [[data, info], [info, data]] {
            let file = try read(RawSMF.riff(form: "RMID", chunks)).file
            #expect(file.rmidInfo?[.title] == Array("Nocturne".utf8))
            #expect(file.titleText(decoding: TextDecoding(detectingIn: file)) == "Nocturne")
            #expect(SongSummary(song: Song(file: file)).title == "Nocturne")
        }
        let plain = try read(song).file
        #expect(plain.rmidInfo == nil && plain.titleText(decoding: TextDecoding(detectingIn: plain)) == "Track name")
    }

    @Test func skipsUnknownChunksBeforeAndBetweenTracks() throws {
        let bytes =
            RawSMF.header(tracks: 2) + RawSMF.chunk("XFIH", [1, 2, 3]) + RawSMF.track([0x00, 0x90, 60, 1])
            + RawSMF.chunk("XFKM", [4]) + RawSMF.track([0x00, 0x91, 61, 1])
        let output = try read(bytes)
        #expect(output.file.tracks.map { $0.events.count } == [2, 2])
        #expect(output.warnings == [.unknownChunk(id: "XFIH", offset: 14), .unknownChunk(id: "XFKM", offset: 14 + 11 + 16)])
    }

    @Test func readsALongHeaderAndAFormat0FileWithTwoTracks() throws {
        let bytes = RawSMF.header(format: 0, tracks: 2, length: 10) + RawSMF.track([0x00, 0x90, 60, 1]) + RawSMF.track([0x00, 0x91, 61, 1])
        let output = try read(bytes)
        #expect(output.file.tracks.count == 2)
        #expect(output.warnings == [.longHeader(length: 10), .singleTrackFormatWithManyTracks(count: 2)])
    }

    @Test func readsLyricsOfKaraokeFiles() throws {
        func text(_ string: String) -> [UInt8] { [0x00, 0xFF, 0x01] + RawSMF.vlq(UInt32(string.utf8.count)) + Array(string.utf8) }
        let words = text("@KMIDI KARAOKE FILE") + text("@TGreensleeves") + text("\\A") + text("las ") + text("my ") + text("/love")
        let summary = SongSummary(song: Song(file: try read(RawSMF.file(tracks: [words])).file))
        #expect(summary.lyrics == "Alas my\nlove")
    }
}
