import SMF
import Synthesis

/// RMID files: what the outline finds lies inside the file; the INFO texts read in every
/// encoding, the summary and the embedded bank's summary are made; the song written again with
/// the same texts, bank offset and bank reads back with them (leniently: a bank cut by the end of
/// the file is still cut, and takes the pad byte after it).
enum RMIDFuzzing {
    static func test(_ bytes: [UInt8]) throws(FuzzFailure) {
        guard let file = try? SMFReader(policy: .lenient).read(bytes).file else { return }
        let picture = file.rmidInfo?.picture.map { Array(bytes[$0.bytes]) }
        let bank = file.embeddedSoundBank.map { Array(bytes[$0.bytes]) }
        if let info = file.rmidInfo {
            for encoding in TextDecoding.Encoding.allCases {
                let decoding = info.textDecoding(songDecoding: TextDecoding(forcing: encoding))
                _ = RMIDInfoSummary(info, decoding: decoding)
            }
        }
        if let embedded = file.embeddedSoundBank { _ = SoundBankSummary(bank: embedded, in: bytes) }
        _ = SongSummary(song: Song(file: file))

        let writer = RMIDWriter(texts: file.rmidInfo?.texts ?? [:], bankOffset: file.rmidInfo?.bankOffset, picture: picture)
        let rewritten = writer.encode(song: SMFWriter().encode(file), soundBank: bank)
        let again: MIDIFile
        do {
            again = try SMFReader(policy: .lenient).read(rewritten).file
        } catch {
            throw .brokenPromise("the file written again is refused: \(error)")
        }
        guard again.tracks == SMFWriter().written(file).tracks else { throw .brokenPromise("the song written again reads differently") }
        guard (again.rmidInfo?.texts ?? [:]) == (file.rmidInfo?.texts ?? [:]) else {
            throw .brokenPromise("the INFO texts written again read differently")
        }
        // A bank cut by the end of the file is read to the end: with the pad byte written after it.
        let bankAgain = again.embeddedSoundBank.map { Array(rewritten[$0.bytes]) }
        let padded = bank.map { $0.count % 2 == 1 ? $0 + [0] : $0 }
        guard bankAgain == bank || bankAgain == padded else {
            throw .brokenPromise("the sound bank written again reads differently")
        }
    }
}
