import Foundation
import TestSupport
import Testing

/// The files `TestSoundBank` writes are laid out as their specifications say, beyond what
/// FluidSynth checks as it loads them (it forgives a missing pad byte, zero samples, a terminal
/// record): another program reading an embedded bank should find them sound too.
@Suite("Layout of the sound banks the tests write")
struct SoundBankLayoutTests {
    static let bank = TestSoundBank(
        name: "Layout",
        presets: [.init("Sine", program: 0, waveform: .sine), .init("Saw", bank: 3, program: 7, waveform: .sawtooth), .drumKit("Kit")])

    /// A chunk as found: its code, where its body starts, and its size as declared.
    struct Chunk {
        var code: String
        var body: Range<Int>
    }

    /// The chunks one after another in `range` of `bytes`, each checked to fit and padded to even.
    static func chunks(_ bytes: [UInt8], in range: Range<Int>) throws -> [Chunk] {
        var found: [Chunk] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            try #require(offset + 8 <= range.upperBound, "a chunk header runs past its list at \(offset)")
            let size = Int(word(bytes, offset + 4))
            let body = offset + 8..<offset + 8 + size
            try #require(body.upperBound + size % 2 <= range.upperBound, "chunk at \(offset) runs past its list")
            found.append(Chunk(code: String(decoding: bytes[offset..<offset + 4], as: UTF8.self), body: body))
            offset = body.upperBound + size % 2
        }
        return found
    }

    /// The chunks inside a LIST (or RIFF) chunk, after its type.
    static func list(_ bytes: [UInt8], _ chunk: Chunk, type: String) throws -> [Chunk] {
        #expect(String(decoding: bytes[chunk.body.prefix(4)], as: UTF8.self) == type)
        return try chunks(bytes, in: chunk.body.lowerBound + 4..<chunk.body.upperBound)
    }

    static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    static func half(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    @Test(
        "SoundFont 2 and 3: INFO, sdta, pdta with its nine tables and their terminal records; 46 zero samples after each .sf2 sample, an Ogg stream at each .sf3 sample's offsets",
        arguments: [TestSoundBank.Format.soundFont2, .soundFont3])
    func soundFontLayout(format: TestSoundBank.Format) throws {
        let bytes = try Self.bank.bytes(format)
        let riff = try #require(Self.chunks(bytes, in: 0..<bytes.count).first)
        #expect(riff.code == "RIFF" && riff.body.upperBound == bytes.count && bytes.count % 2 == 0)
        let top = try Self.list(bytes, riff, type: "sfbk")
        #expect(top.map(\.code) == ["LIST", "LIST", "LIST"])
        let info = try Self.list(bytes, top[0], type: "INFO")
        #expect(info.map(\.code) == ["ifil", "isng", "INAM", "ISFT"])
        #expect(Self.half(bytes, info[0].body.lowerBound) == (format == .soundFont3 ? 3 : 2))
        #expect(String(decoding: bytes[info[2].body].prefix { $0 != 0 }, as: UTF8.self) == "Layout")
        let samples = try #require(try Self.list(bytes, top[1], type: "sdta").first)
        #expect(samples.code == "smpl")
        let tables = try Self.list(bytes, top[2], type: "pdta")
        #expect(tables.map(\.code) == ["phdr", "pbag", "pmod", "pgen", "inst", "ibag", "imod", "igen", "shdr"])
        // Record sizes and counts: three presets and instruments, two waveforms and the noise, each with a terminal record.
        let recordSizes = [38, 4, 10, 4, 22, 4, 10, 4, 46]
        for (table, size) in zip(tables, recordSizes) { #expect(table.body.count % size == 0, "\(table.code)") }
        #expect(tables[0].body.count == 4 * 38 && tables[4].body.count == 4 * 22 && tables[8].body.count == 4 * 46)
        #expect(String(decoding: bytes[tables[0].body.lowerBound + 3 * 38..<tables[0].body.lowerBound + 3 * 38 + 3], as: UTF8.self) == "EOP")
        // The second preset: program 7, bank 3.
        #expect(Self.half(bytes, tables[0].body.lowerBound + 38 + 20) == 7 && Self.half(bytes, tables[0].body.lowerBound + 38 + 22) == 3)
        #expect(String(decoding: bytes[tables[8].body.lowerBound + 3 * 46..<tables[8].body.lowerBound + 3 * 46 + 3], as: UTF8.self) == "EOS")

        let waveforms: [TestWaveform] = [.sine, .sawtooth, .noise]
        for (index, waveform) in waveforms.enumerated() {
            let header = tables[8].body.lowerBound + index * 46
            let (start, end) = (Int(Self.word(bytes, header + 20)), Int(Self.word(bytes, header + 24)))
            let (loopStart, loopEnd) = (Int(Self.word(bytes, header + 28)), Int(Self.word(bytes, header + 32)))
            let sampleType = Self.half(bytes, header + 44)
            let sample = waveform.sample
            #expect(bytes[header + 40] == sample.rootKey)
            if format == .soundFont2 {
                #expect(sampleType == 1)
                #expect(end - start == sample.frames.count)
                let after = (end..<end + 46).map { Self.half(bytes, samples.body.lowerBound + 2 * $0) }
                #expect(after.allSatisfy { $0 == 0 }, "\(waveform): 46 zero samples after it")
                #expect(Self.half(bytes, samples.body.lowerBound + 2 * start) == UInt16(bitPattern: sample.frames[0]))
                #expect(loopEnd - loopStart == (sample.loop?.count ?? 0) && loopStart - start == (sample.loop?.lowerBound ?? 0))
            } else {
                #expect(sampleType == 0x11, "mono, Ogg Vorbis")
                #expect(bytes[samples.body.lowerBound + start..<samples.body.lowerBound + start + 4].elementsEqual("OggS".utf8))
                #expect(end <= samples.body.count)
                // Loops count from the decoded sample's start.
                #expect(loopStart == (sample.loop?.lowerBound ?? 0) && loopEnd == (sample.loop?.upperBound ?? 0))
            }
        }
    }

    @Test("DLS: colh, vers, lins with an ins list each, ptbl pointing at each wave list, wvpl with fmt, data and wsmp")
    func dlsLayout() throws {
        let bytes = try Self.bank.bytes(.downloadableSounds)
        let riff = try #require(Self.chunks(bytes, in: 0..<bytes.count).first)
        #expect(riff.code == "RIFF" && riff.body.upperBound == bytes.count)
        let top = try Self.list(bytes, riff, type: "DLS ")
        #expect(top.map(\.code) == ["colh", "vers", "LIST", "ptbl", "LIST", "LIST"])
        #expect(Self.word(bytes, top[0].body.lowerBound) == 3)
        let instruments = try Self.list(bytes, top[2], type: "lins")
        #expect(instruments.count == 3)
        let headers = try instruments.map { try #require(try Self.list(bytes, $0, type: "ins ").first) }
        #expect(headers.allSatisfy { $0.code == "insh" })
        #expect(headers.map { Self.word(bytes, $0.body.lowerBound + 4) } == [0, 3, 0x8000_0000], "ulBank: drum flag for the kit")
        #expect(headers.map { Self.word(bytes, $0.body.lowerBound) } == [1, 1, 128], "regions: one, or one a key for the kit")
        let pool = top[4]
        let waves = try Self.list(bytes, pool, type: "wvpl")
        #expect(Self.word(bytes, top[3].body.lowerBound + 4) == 3)
        for (index, wave) in waves.enumerated() {
            // Pool table offsets count from the first byte after `wvpl`.
            let offset = Int(Self.word(bytes, top[3].body.lowerBound + 8 + 4 * index))
            #expect(pool.body.lowerBound + 4 + offset == wave.body.lowerBound - 8)
            #expect(try Self.list(bytes, wave, type: "wave").map(\.code) == ["fmt ", "data", "wsmp", "LIST"])
        }
    }
}
