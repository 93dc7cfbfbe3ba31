import Testing

@testable import SMF

/// RMID files written by ``RMIDWriter`` read back as written, and hostile edits of them read leniently.
struct RMIDWriterTests {
    static let song = SMFWriter().encode(BrokenFileTests.sampleFile())
    /// The smallest SoundFont-looking bank, 25 bytes: odd, to need a pad byte.
    static let bank = Array("RIFF".utf8) + RawSMF.le32(17) + Array("sfbk".utf8) + Array("LIST".utf8) + RawSMF.le32(5) + Array("INFO".utf8) + [1]
    static let texts: [RMIDInfo.Field: [UInt8]] = Dictionary(
        uniqueKeysWithValues: RMIDInfo.Field.allCases.map { ($0, Array("\($0.rawValue) text, odd".utf8)) })

    static func written(bankOffset: Int? = 0, textEncoding: String? = "utf-8") -> RMIDWriter {
        RMIDWriter(texts: texts, textEncoding: textEncoding, midiTextEncoding: "Shift_JIS", bankOffset: bankOffset, picture: RMIDReadingTests.png)
    }

    @Test("write, then read: the same song, texts, encodings, bank offset, picture and bank, and no warning")
    func roundTrip() throws {
        let bytes = Self.written().encode(song: Self.song, soundBank: Array(Self.bank))
        #expect(bytes.count % 2 == 0 && Self.bank.count % 2 == 1)
        #expect(Array(bytes[8..<12]) == Array("RMID".utf8) && RawSMF.le32(UInt32(bytes.count - 8)) == Array(bytes[4..<8]))
        let output = try SMFReader(policy: .strict).read(bytes)
        #expect(output.file.tracks == (try SMFReader().read(Self.song)).file.tracks)
        let info = try #require(output.file.rmidInfo)
        #expect(info.texts == Self.texts)
        #expect(info.textEncoding == .utf8 && info.midiTextEncoding == .shiftJIS && info.bankOffset == 0)
        let picture = try #require(info.picture)
        #expect(Array(bytes[picture.bytes]) == RMIDReadingTests.png && picture.format == .png)
        let bank = try #require(output.file.embeddedSoundBank)
        #expect(Array(bytes[bank.bytes]) == Array(Self.bank) && bank.format == .soundFont && bank.bankOffset == 0)
        // The bank is last, with its pad byte after it.
        #expect(bank.bytes.upperBound == bytes.count - 1)
    }

    @Test("without a bank, INFO or DBNK, the file is the song alone; a DBNK out of range is written clamped")
    func optionalParts() throws {
        let bare = RMIDWriter().encode(song: Self.song)
        #expect(bare.count == 12 + 8 + Self.song.count + Self.song.count % 2)
        let read = try SMFReader(policy: .strict).read(bare).file
        #expect(read.rmidInfo == nil && read.embeddedSoundBank == nil)
        let noOffset = try SMFReader(policy: .strict).read(Self.written(bankOffset: nil).encode(song: Self.song, soundBank: Array(Self.bank))).file
        #expect(noOffset.embeddedSoundBank?.bankOffset == 1)
        let clamped = try SMFReader(policy: .strict).read(Self.written(bankOffset: 500).encode(song: Self.song)).file
        #expect(clamped.rmidInfo?.bankOffset == 127)
    }

    @Test("hostile edits of a written file: a cut bank, a 2 GB INFO size, a DBNK made out of range, IENC unknown")
    func hostileEdits() throws {
        let bytes = Self.written().encode(song: Self.song, soundBank: Array(Self.bank))
        let clean = try SMFReader().read(bytes).file
        let bank = try #require(clean.embeddedSoundBank)
        // Cut inside the bank, after its own INFO header: kept, cut, with a warning.
        let cut = Array(bytes.prefix(bank.bytes.lowerBound + 24))
        let cutOutput = try SMFReader().read(cut)
        #expect(cutOutput.file.embeddedSoundBank?.bytes == bank.bytes.lowerBound..<cut.count)
        #expect(
            cutOutput.warnings == [
                .rmidChunkPastEndOfFile(id: "RIFF sfbk", offset: bank.bytes.lowerBound, declared: Self.bank.count - 8, available: 16)
            ])
        // Cut inside the bank's own header: no bank, and a word about the bytes left.
        let headerCut = try SMFReader().read(Array(bytes.prefix(bank.bytes.lowerBound + 6)))
        #expect(headerCut.file.embeddedSoundBank == nil && headerCut.warnings == [.trailingData(count: 6, offset: bank.bytes.lowerBound)])
        // The INFO list's size made 2 GB: it runs over the bank, which is then not found; the texts still are.
        let listAt = 12 + 8 + Self.song.count + Self.song.count % 2
        var huge = bytes
        huge.replaceSubrange(listAt + 4..<listAt + 8, with: RawSMF.le32(0x8000_0000))
        let hugeOutput = try SMFReader().read(huge)
        #expect(hugeOutput.file.rmidInfo?.texts == Self.texts && hugeOutput.file.embeddedSoundBank == nil)
        #expect(
            hugeOutput.warnings.first
                == .rmidChunkPastEndOfFile(id: "LIST INFO", offset: listAt, declared: 0x8000_0000, available: bytes.count - listAt - 8))
        // DBNK edited to 0x0100 (256): clamped to 127.
        let dbnk = try #require(Self.find("DBNK", in: bytes))
        var far = bytes
        far[dbnk + 8] = 0
        far[dbnk + 9] = 1
        let farOutput = try SMFReader().read(far)
        #expect(farOutput.file.embeddedSoundBank?.bankOffset == 127 && farOutput.warnings == [.bankOffsetOutOfRange(256, used: 127)])
        // IENC edited to a name no one reads: the texts are read as the song's.
        let ienc = try #require(Self.find("IENC", in: bytes))
        var unknown = bytes
        unknown.replaceSubrange(ienc + 8..<ienc + 13, with: Array("xx-99".utf8))
        let unknownOutput = try SMFReader().read(unknown)
        #expect(unknownOutput.file.rmidInfo?.textEncoding == nil && unknownOutput.warnings == [.unknownTextEncoding(chunk: "IENC", name: "xx-99")])
    }

    @Test("every prefix of a written file reads or is refused with an error, never a trap")
    func everyPrefix() {
        let bytes = Self.written().encode(song: Self.song, soundBank: Array(Self.bank))
        let songEnd = 12 + 8 + Self.song.count
        for length in 0...bytes.count {
            let output = try? SMFReader().read(Array(bytes.prefix(length)))
            // Past the song, every prefix reads it whole; the parts after it come as the file holds them.
            if length >= songEnd { #expect(output?.file.tracks.count == 3, "prefix of \(length)") }
        }
    }

    static func find(_ id: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(id.utf8)
        return (0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == pattern }
    }
}
