import Testing

@testable import SMF

/// RMID files' outline: the song, the INFO list (SF2-RMIDI rev. 1.19) and the embedded sound bank,
/// read as players in the wild read them.
struct RMIDReadingTests {
    /// A one-track song named "Track name".
    static let song = RawSMF.file(tracks: [[0x00, 0xFF, 0x03, 10] + Array("Track name".utf8) + Hostile.note])
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    /// The start every SoundFont has (`sfbk`, then its INFO list), with a body of `extra` bytes after it.
    static func soundFont(extra: Int = 6) -> [UInt8] {
        RawSMF.riffChunk("RIFF", Array("sfbk".utf8) + RawSMF.riffChunk("LIST", Array("INFO".utf8) + Hostile.zeros(extra)))
    }

    static func info(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        RawSMF.riffChunk("LIST", Array("INFO".utf8) + chunks.map { RawSMF.riffChunk($0.0, $0.1) }.joined())
    }

    static func read(_ chunks: [[UInt8]], policy: SMFReadingPolicy = .lenient) throws -> SMFReader.Output {
        try SMFReader(policy: policy).read(RawSMF.riff(form: "RMID", chunks))
    }

    @Test("every INFO field, the encodings, the picture and the bank offset are read, and the bank's place")
    func readsTheWholeOutline() throws {
        let fields: [(String, [UInt8])] = [
            ("INAM", Array("Nocturne".utf8) + [0]), ("IART", Array("Chopin".utf8)), ("IPRD", Array("Product".utf8)),
            ("IALB", Array("Nocturnes".utf8)), ("IGNR", Array("Classical".utf8)), ("ICRD", Array("1835".utf8)),
            ("ICMT", Array("Op. 9".utf8)), ("ICOP", Array("public domain".utf8)), ("IENG", Array("Bank maker".utf8)),
            ("ISFT", Array("smfplay".utf8)), ("IENC", Array("UTF-8".utf8)), ("MENC", Array("Shift_JIS".utf8)),
            ("DBNK", [5, 0]), ("IPIC", Self.png), ("ISBJ", Array("unknown INFO chunks are skipped".utf8)), ("IKEY", []),
        ]
        let data = RawSMF.riffChunk("data", Self.song)
        let infoList = Self.info(fields)
        let bank = Self.soundFont()
        let output = try Self.read([data, infoList, bank])
        #expect(output.warnings.isEmpty)
        let info = try #require(output.file.rmidInfo)
        let expected: [RMIDInfo.Field: String] = [
            .title: "Nocturne", .artist: "Chopin", .album: "Nocturnes", .genre: "Classical", .date: "1835", .comment: "Op. 9",
            .copyright: "public domain", .engineer: "Bank maker", .software: "smfplay",
        ]
        #expect(info.texts.mapValues { String(decoding: $0, as: UTF8.self) } == expected)
        #expect(info.textEncoding == .utf8 && info.midiTextEncoding == .shiftJIS && info.bankOffset == 5)
        // RIFF header 12, data chunk 8 + song (even), LIST header 12, then the INFO chunks before IPIC.
        let pictureStart = 12 + data.count + 12 + fields.prefix(13).map { 8 + $0.1.count + $0.1.count % 2 }.reduce(0, +) + 8
        #expect(info.picture == RMIDInfo.Picture(bytes: pictureStart..<pictureStart + Self.png.count, format: .png))
        let bankStart = 12 + data.count + infoList.count
        #expect(output.file.embeddedSoundBank == EmbeddedSoundBank(format: .soundFont, bytes: bankStart..<bankStart + bank.count, bankOffset: 5))
        #expect(output.file.titleText(decoding: TextDecoding(detectingIn: output.file)) == "Nocturne")
        // The song is the same as the plain file's.
        #expect(output.file.tracks == (try SMFReader().read(Self.song)).file.tracks)
    }

    @Test("without DBNK the bank is heard at offset 1; DLS is named; without a bank there is none, and an empty INFO is none")
    func defaultsAndKinds() throws {
        let data = RawSMF.riffChunk("data", Self.song)
        let dls = RawSMF.riffChunk("RIFF", Array("DLS ".utf8) + RawSMF.riffChunk("colh", [3, 0, 0, 0]))
        let withDLS = try Self.read([data, Self.info([("INAM", Array("x".utf8))]), dls]).file
        #expect(withDLS.embeddedSoundBank?.format == .downloadableSounds && withDLS.embeddedSoundBank?.bankOffset == 1)
        #expect(withDLS.rmidInfo?.bankOffset == nil)
        let noBank = try Self.read([data, Self.info([("DBNK", [0, 0])])]).file
        #expect(noBank.embeddedSoundBank == nil && noBank.rmidInfo?.bankOffset == 0)
        let emptyInfo = try Self.read([data, Self.info([("INAM", [])])])
        #expect(emptyInfo.file.rmidInfo == nil && emptyInfo.warnings.isEmpty)
        #expect(emptyInfo.file.titleText(decoding: TextDecoding(detectingIn: emptyInfo.file)) == "Track name")
    }

    @Test("IENC decides how the INFO texts read, MENC how the song's do; a forced encoding overrides both")
    func declaredEncodings() throws {
        // "夜想曲" in kanji alone: a guess reads it as Windows-1252 (see LyricsTests).
        let nocturne = LyricsTests.nocturneShiftJIS
        let data = RawSMF.riffChunk("data", Self.song)
        let declared = try Self.read([data, Self.info([("INAM", nocturne), ("IART", nocturne), ("IENC", Array("shift-jis".utf8))])]).file
        let songDecoding = TextDecoding(detectingIn: declared)
        #expect(declared.titleText(decoding: songDecoding) == "夜想曲")
        let info = try #require(declared.rmidInfo)
        #expect(info.text(.artist, decoding: info.textDecoding(songDecoding: songDecoding)) == "夜想曲")
        #expect(SongSummary(song: Song(file: declared)).title == "夜想曲")
        // The user's forced encoding wins over the file's.
        #expect(declared.titleText(decoding: TextDecoding(forcing: .cp1252)) == "–é‘z‹È")
        // Without IENC the same bytes are guessed, with the song's texts, as Windows-1252.
        let undeclared = try Self.read([data, Self.info([("INAM", nocturne)])]).file
        #expect(undeclared.titleText(decoding: TextDecoding(detectingIn: undeclared)) == "–é‘z‹È")

        // Code pages Foundation names (1251) and those it reads only by number (1255).
        let cyrillic: [UInt8] = [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]
        let hebrew: [UInt8] = [0xF9, 0xEC, 0xE5, 0xED]
        for (name, bytes, text) in [("windows-1251", cyrillic, "Привет"), ("WINDOWS-1255", hebrew, "שלום")] {
            let file = try Self.read([data, Self.info([("INAM", bytes), ("IENC", Array(name.utf8))])]).file
            #expect(file.titleText(decoding: TextDecoding(detectingIn: file)) == text, "\(name)")
        }

        // MENC: the song's own track name in Shift-JIS kanji alone.
        let japaneseSong = RawSMF.file(tracks: [[0x00, 0xFF, 0x03, UInt8(nocturne.count)] + nocturne + Hostile.note])
        let hinted = try Self.read([RawSMF.riffChunk("data", japaneseSong), Self.info([("MENC", Array("Shift_JIS".utf8))])]).file
        #expect(TextDecoding(detectingIn: hinted) == TextDecoding(declared: .shiftJIS))
        #expect(hinted.titleText(decoding: TextDecoding(detectingIn: hinted)) == "夜想曲")
        let unhinted = try SMFReader().read(japaneseSong).file
        #expect(unhinted.titleText(decoding: TextDecoding(detectingIn: unhinted)) != "夜想曲")
    }

    @Test("the encoding names the specification and programs use")
    func encodingNames() {
        let names: [(String, TextDecoding.Encoding?)] = [
            ("utf-8", .utf8), ("UTF8", .utf8), ("ascii", .utf8), ("shift-jis", .shiftJIS), ("Shift_JIS", .shiftJIS), ("SJIS", .shiftJIS),
            ("windows-1250", .cp1250), ("Windows-1252", .cp1252), ("windows-1258", .cp1258), ("cp1254", .cp1254),
            ("windows-1259", nil), ("koi8-r", nil), ("", nil), ("windows-", nil),
        ]
        for (name, encoding) in names { #expect(TextDecoding.Encoding(declaredName: name) == encoding, "\(name)") }
        // Every page the specification requires reads its letters (0xE0 is a letter in each).
        for page in TextDecoding.Encoding.allCases where page != .utf8 && page != .shiftJIS {
            let text = TextDecoding(forcing: page).string(from: [0xE0])
            #expect(text.unicodeScalars.first.map { $0.properties.isAlphabetic } == true, "\(page): \(text)")
        }
    }

    @Test("chunks out of order, repeated or unknown are read with warnings")
    func orderAndRepeats() throws {
        let data = RawSMF.riffChunk("data", Self.song)
        let info = Self.info([("INAM", Array("Title".utf8)), ("DBNK", [3, 0])])
        let bank = Self.soundFont()
        let junk = RawSMF.riffChunk("XTRA", [1, 2, 3])
        let output = try Self.read([bank, junk, info, data, bank, info, data])
        let bankAt = 12
        let junkAt = bankAt + bank.count
        let infoAt = junkAt + junk.count
        let dataAt = infoAt + info.count
        #expect(
            output.warnings == [
                .unknownChunk(id: "XTRA", offset: junkAt),
                .repeatedRMIDChunk(id: "RIFF sfbk", offset: dataAt + data.count),
                .repeatedRMIDChunk(id: "LIST INFO", offset: dataAt + data.count + bank.count),
                .repeatedRMIDChunk(id: "data", offset: dataAt + data.count + bank.count + info.count),
                .rmidChunksOutOfOrder(["the sound bank", "the INFO list", "the song ('data')"]),
            ])
        #expect(output.file.embeddedSoundBank == EmbeddedSoundBank(format: .soundFont, bytes: bankAt..<bankAt + bank.count, bankOffset: 3))
        #expect(output.file.rmidInfo?[.title] == Array("Title".utf8))
        #expect(
            output.warnings.last?.description
                == "the RMID file holds the sound bank, then the INFO list, then the song ('data'); the specification puts the song first, then the INFO list, then the sound bank; read anyway"
        )
        // Strict reading refuses what lenient reading warns about.
        #expect(
            Hostile.readError(RawSMF.riff(form: "RMID", [info, data]), policy: .strict)
                == .rejected(.rmidChunksOutOfOrder(["the INFO list", "the song ('data')"])))
    }

    @Test("a DBNK of the wrong length or out of range is read as the specification's player reads it, clamped")
    func bankOffsets() throws {
        let data = RawSMF.riffChunk("data", Self.song)
        let dbnkAt = 12 + data.count + 12
        let cases: [([UInt8], Int, [SMFWarning])] = [
            ([127, 0], 127, []),
            ([7], 7, [.bankOffsetLength(1, offset: dbnkAt)]),
            ([9, 0, 0, 0], 9, [.bankOffsetLength(4, offset: dbnkAt)]),
            ([0x2C, 0x01], 127, [.bankOffsetOutOfRange(300, used: 127)]),
            ([0xFF, 0xFF], 0, [.bankOffsetOutOfRange(-1, used: 0)]),
        ]
        for (dbnk, offset, warnings) in cases {
            let output = try Self.read([data, Self.info([("DBNK", dbnk)]), Self.soundFont()])
            #expect(output.file.embeddedSoundBank?.bankOffset == offset, "\(dbnk)")
            #expect(output.warnings == warnings, "\(dbnk)")
        }
    }

    @Test("sizes past the end, a bank cut short, an sfbk that is not one, a nested RIFF, a missing pad byte")
    func damagedChunks() throws {
        let data = RawSMF.riffChunk("data", Self.song)
        let bankAt = 12 + data.count
        // A bank cut by the end of the file is kept, cut, for the synthesizer to try.
        let bank = Self.soundFont(extra: 100)
        let cut = Array(RawSMF.riff(form: "RMID", [data, bank]).dropLast(50))
        let cutOutput = try SMFReader().read(cut)
        #expect(cutOutput.file.embeddedSoundBank?.bytes == bankAt..<cut.count)
        #expect(
            cutOutput.warnings == [.rmidChunkPastEndOfFile(id: "RIFF sfbk", offset: bankAt, declared: bank.count - 8, available: bank.count - 58)])
        // A 2 GB size on the INFO list: what is there is read.
        var hugeInfo = Self.info([("INAM", Array("Huge".utf8))])
        hugeInfo.replaceSubrange(4..<8, with: RawSMF.le32(0x7FFF_FFFF))
        let huge = try Self.read([data, hugeInfo])
        #expect(huge.file.rmidInfo?[.title] == Array("Huge".utf8))
        #expect(huge.warnings == [.rmidChunkPastEndOfFile(id: "LIST INFO", offset: bankAt, declared: 0x7FFF_FFFF, available: hugeInfo.count - 8)])
        // An sfbk without a SoundFont's INFO list is not a bank; a RIFF WAVE inside is unknown.
        let fake = RawSMF.riffChunk("RIFF", Array("sfbk".utf8) + Hostile.zeros(20))
        let wave = RawSMF.riffChunk("RIFF", Array("WAVE".utf8) + Hostile.zeros(4))
        let odd = try Self.read([data, fake, wave])
        #expect(odd.file.embeddedSoundBank == nil)
        #expect(odd.warnings == [.notASoundFont(offset: bankAt), .unknownChunk(id: "RIFF WAVE", offset: bankAt + fake.count)])
        // An odd INFO text written without its pad byte: the next chunk is still found.
        let unpadded = Array("INAM".utf8) + RawSMF.le32(3) + Array("Odd".utf8) + Array("IART".utf8) + RawSMF.le32(2) + Array("Me".utf8)
        let missingPad = try Self.read([data, RawSMF.riffChunk("LIST", Array("INFO".utf8) + unpadded)])
        #expect(missingPad.file.rmidInfo?.texts == [.title: Array("Odd".utf8), .artist: Array("Me".utf8)])
        #expect(missingPad.warnings == [.missingPadByte(id: "INAM", offset: bankAt + 12)])
    }

    @Test("unknown encodings, pictures that are not PNG or JPEG, and overlong texts are warned about")
    func infoWarnings() throws {
        let data = RawSMF.riffChunk("data", Self.song)
        let long = [UInt8](repeating: 0x41, count: RMIDOutline.maximumTextLength + 10)
        let gif = Array("GIF89a".utf8)
        let output = try Self.read([data, Self.info([("IENC", Array("koi8-r".utf8)), ("IPIC", gif), ("ICMT", long), ("IPIC", Self.png)])])
        let ipicAt = 12 + data.count + 12 + 8 + 6
        #expect(
            output.warnings == [
                .unknownTextEncoding(chunk: "IENC", name: "koi8-r"), .unknownPictureFormat(offset: ipicAt),
                .longInfoText(id: "ICMT", length: long.count, kept: RMIDOutline.maximumTextLength),
            ])
        let info = try #require(output.file.rmidInfo)
        #expect(info.textEncoding == nil && info.picture?.format == nil && info[.comment]?.count == RMIDOutline.maximumTextLength)
        #expect(
            output.warnings[0].description
                == "'IENC' names the text encoding 'koi8-r', which smfplay cannot read; the INFO texts are read as if it named none")
    }

    @Test("RIFF's own DISP, JUNK and PAD chunks pass without a word; a pad byte counted in the data chunk is no trailing data")
    func harmlessChunks() throws {
        let padded = RawSMF.riffChunk("data", Self.song + [0])
        let output = try Self.read([RawSMF.riffChunk("DISP", [1, 0, 0, 0, 65]), padded, RawSMF.riffChunk("JUNK", Hostile.zeros(6))])
        #expect(output.warnings.isEmpty)
        let two = try Self.read([RawSMF.riffChunk("data", Self.song + [0, 0])])
        #expect(two.warnings == [.trailingData(count: 2, offset: 12 + 8 + Self.song.count)])
    }

    @Test("a million empty chunks cost no memory and give a bounded list of warnings")
    func manyChunks() throws {
        let data = RawSMF.riffChunk("data", Self.song)
        let empties = [UInt8](Array(repeating: Array("XTRA".utf8) + RawSMF.le32(0), count: 1_000_000).joined())
        let output = try SMFReader().read(RawSMF.riff(form: "RMID", [data]) + empties)
        #expect(output.warnings.count == 100 && output.omittedWarningCount == 1_000_000 - 100)
    }
}
