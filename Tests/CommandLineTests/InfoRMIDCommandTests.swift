import Foundation
import SMF
import TestSupport
import Testing

/// `smfplay info` on RMID files written by the project's `RMIDWriter`: their INFO texts and
/// their own sound bank, as a user reads them.
@Suite("smfplay info on RMID files")
struct InfoRMIDCommandTests {
    /// "夜想曲" in Shift-JIS: kanji alone, which a guess reads as Windows-1252.
    static let nocturneShiftJIS: [UInt8] = [0x96, 0xE9, 0x91, 0x7A, 0x8B, 0xC8]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 2040)

    static func writer(_ texts: [RMIDInfo.Field: String], bankOffset: Int? = nil) -> RMIDWriter {
        RMIDWriter(texts: texts.mapValues { Array($0.utf8) }, textEncoding: "utf-8", bankOffset: bankOffset, picture: png)
    }

    @Test("every INFO text on its line, the picture, and the SoundFont's kind, size, presets (counted from its phdr) and offset")
    func textsAndSoundFont() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let bank = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.soundFont)))
        let texts: [RMIDInfo.Field: String] = [
            .title: "Nocturne", .artist: "Chopin", .album: "Nocturnes", .genre: "Classical", .date: "1835", .comment: "Op. 9\nNo. 2",
            .copyright: "public domain", .engineer: "Tim Brechbill", .software: "smfplay tests",
        ]
        try sandbox.write("n.rmi", Self.writer(texts).encode(song: Fixtures.song(title: "Track title"), soundBank: bank))
        let result = try sandbox.run(["info", "n.rmi"])
        #expect(result.succeeded && result.stderr.isEmpty, "\(result)")
        let lines = result.stdoutLines
        let expected: [(String, String)] = [
            ("Title", "Nocturne"), ("Artist", "Chopin"), ("Album", "Nocturnes"), ("Genre", "Classical"), ("Date", "1835"),
            ("Engineer", "Tim Brechbill"), ("Software", "smfplay tests"), ("Comment", "Op. 9"), ("Picture", "PNG, 2 KB"),
            // TimGM6mb.sf2: 5,969,788 bytes; its phdr holds 137 records, the last the terminal one.
            ("Sound bank", "embedded SF2, 5.7 MB, 136 presets, bank offset 1 (the file's own)"), ("Copyright", "public domain"),
        ]
        for (label, value) in expected { #expect(InfoCommandTests.field(label, in: lines) == value, "\(label): \(result.stdout)") }
        // The comment's second line under its first.
        #expect(lines.contains("             No. 2"), "\(result.stdout)")
        // The rows in the order a tag view shows them, the bank last of them.
        let labels = lines.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(
            Array(labels.prefix(12)) == [
                "n.rmi", "Title", "Artist", "Album", "Genre", "Date", "Engineer", "Software", "Comment", "No.", "Picture", "Sound",
            ])
    }

    @Test("an SF3 (ifil 3) and a DLS bank are named as such, DLS with its colh instrument count; DBNK is the offset shown")
    func sf3AndDLS() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        var sf3 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.soundFont)))
        let ifil = try #require((0..<4096).first { Array(sf3[$0..<$0 + 4]) == Array("ifil".utf8) })
        sf3[ifil + 8] = 3
        try sandbox.write("sf3.rmi", Self.writer([:], bankOffset: 7).encode(song: Fixtures.song(), soundBank: sf3))
        let colh = Array("colh".utf8) + [4, 0, 0, 0] + [3, 0, 0, 0]
        let dls = Array("RIFF".utf8) + [UInt8(4 + colh.count), 0, 0, 0] + Array("DLS ".utf8) + colh
        try sandbox.write("dls.rmi", Self.writer([:]).encode(song: Fixtures.song(), soundBank: dls))
        let result = try sandbox.run(["info", "sf3.rmi", "dls.rmi"])
        #expect(result.succeeded && result.stderr.isEmpty, "\(result)")
        let blocks = InfoCommandTests.blocks(result.stdoutLines)
        #expect(
            InfoCommandTests.field("Sound bank", in: blocks[0].lines) == "embedded SF3, 5.7 MB, 136 presets, bank offset 7 (the file's own)",
            "\(result)")
        #expect(
            InfoCommandTests.field("Sound bank", in: blocks[1].lines) == "embedded DLS, 1 KB, 3 instruments, bank offset 1 (the file's own)",
            "\(result)")
    }

    @Test("IENC shift-jis reads the title; --text-encoding overrides it; a bank cut short says its presets cannot be read")
    func encodingsAndDamage() throws {
        let sandbox = try Sandbox()
        let japanese = RMIDWriter(texts: [.title: Self.nocturneShiftJIS, .artist: Self.nocturneShiftJIS], textEncoding: "Shift_JIS")
        try sandbox.write("j.rmi", japanese.encode(song: Fixtures.song()))
        let declared = try sandbox.run(["info", "j.rmi"])
        #expect(InfoCommandTests.field("Title", in: declared.stdoutLines) == "夜想曲", "\(declared)")
        #expect(InfoCommandTests.field("Artist", in: declared.stdoutLines) == "夜想曲", "\(declared)")
        let forced = try sandbox.run(["info", "--text-encoding", "cp1252", "j.rmi"])
        #expect(InfoCommandTests.field("Title", in: forced.stdoutLines) == "–é‘z‹È", "\(forced)")

        let bank = Array("RIFF".utf8) + [0xF0, 0, 0, 0] + Array("sfbk".utf8) + Array("LIST".utf8) + [4, 0, 0, 0] + Array("INFO".utf8)
        try sandbox.write("cut.rmi", RMIDWriter().encode(song: Fixtures.song(), soundBank: bank))
        let cut = try sandbox.run(["info", "cut.rmi"])
        #expect(cut.succeeded, "\(cut)")
        #expect(
            InfoCommandTests.field("Sound bank", in: cut.stdoutLines)
                == "embedded SF2, 1 KB, presets unreadable (the bank is damaged or cut short), bank offset 1 (the file's own)", "\(cut)")
        #expect(cut.stdout.contains("chunk 'RIFF sfbk' at byte"), "\(cut)")
    }

    @Test("--json: the INFO texts under summary.rmidInfo, the bank under soundBank")
    func json() throws {
        let sandbox = try Sandbox()
        let colh = Array("colh".utf8) + [4, 0, 0, 0] + [2, 0, 0, 0]
        let dls = Array("RIFF".utf8) + [UInt8(4 + colh.count), 0, 0, 0] + Array("DLS ".utf8) + colh
        try sandbox.write(
            "a.rmi", Self.writer([.title: "Song", .artist: "Someone", .genre: "Test"], bankOffset: 0).encode(song: Fixtures.song(), soundBank: dls))
        let result = try sandbox.run(["info", "--json", "a.rmi"])
        #expect(result.succeeded, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result)")
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        let summary = try #require(file["summary"] as? [String: Any])
        #expect(summary["title"] as? String == "Song")
        let info = try #require(summary["rmidInfo"] as? [String: Any], "\(summary)")
        #expect(info["artist"] as? String == "Someone" && info["genre"] as? String == "Test" && info["textEncoding"] as? String == "utf-8")
        #expect((info["picture"] as? [String: Any])?["format"] as? String == "png")
        let bank = try #require(file["soundBank"] as? [String: Any], "\(file)")
        #expect(bank["kind"] as? String == "dls" && bank["presetCount"] as? Int == 2 && bank["bankOffset"] as? Int == 0)
        #expect(bank["byteCount"] as? Int == dls.count)
    }
}
