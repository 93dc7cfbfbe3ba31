import Foundation
import SMF
import TestSupport
import Testing

/// `smfplay info` names the bank beside a song that `render` and `play` would hear over the
/// SoundFonts, and the rule that chose it; `--no-sidecar` and `sidecar_soundfonts = false` turn
/// the lookup off, and a bank in the song's own file wins.
@Suite("smfplay info on sidecar banks")
struct SidecarInfoCommandTests {
    static let bank = TestSoundBank(presets: [.init("Sidecar Sine", program: 0, waveform: .sine), .drumKit("Sidecar Noise")])

    /// A sandbox with `Album/Chopin.mid` and its `Chopin.sf2`, `Album/Other.mid` and the folder's
    /// `Album.sf2`, `Solo/Song.mid` and the folder's only bank, `Piano.dls`.
    private func library() throws -> Sandbox {
        let sandbox = try Sandbox()
        for song in ["Album/Chopin.mid", "Album/Other.mid", "Solo/Song.mid"] { try sandbox.write(song, Fixtures.song()) }
        try sandbox.write("Album/Chopin.sf2", Self.bank.bytes(.soundFont2))
        try sandbox.write("Album/album.SF2", Self.bank.bytes(.soundFont2))
        try sandbox.write("Solo/Piano.dls", Self.bank.bytes(.downloadableSounds))
        return sandbox
    }

    private func soundBankLines(_ result: Command.Result) -> [String: String?] {
        Dictionary(
            uniqueKeysWithValues: InfoCommandTests.blocks(result.stdoutLines).map { ($0.path, InfoCommandTests.field("Sound bank", in: $0.lines)) })
    }

    @Test("each rule's bank and reason: same name, named like its folder, the folder's only bank")
    func eachRule() throws {
        let sandbox = try library()
        let result = try sandbox.run(["info", "Album", "Solo/Song.mid"])
        #expect(result.succeeded && result.stderr.isEmpty, "\(result)")
        #expect(
            soundBankLines(result) == [
                "Album/Chopin.mid": "Chopin.sf2 beside it, SF2, 40 KB, 2 presets (same name)",
                "Album/Other.mid": "album.SF2 beside it, SF2, 40 KB, 2 presets (named like its folder)",
                "Solo/Song.mid": "Piano.dls beside it, DLS, 49 KB, 2 instruments (the folder's only bank)",
            ], "\(result)")
    }

    @Test("from inside the folder (a relative path without a folder), the folder's name is the working folder's")
    func fromInsideTheFolder() throws {
        let sandbox = try library()
        let result = try sandbox.run(["info", "Other.mid"], in: "Album")
        #expect(
            InfoCommandTests.field("Sound bank", in: result.stdoutLines) == "album.SF2 beside it, SF2, 40 KB, 2 presets (named like its folder)",
            "\(result)")
    }

    @Test("--no-sidecar and the configuration's sidecar_soundfonts = false: no bank")
    func turnedOff() throws {
        let sandbox = try library()
        let off = try sandbox.run(["info", "--no-sidecar", "Album", "Solo"])
        #expect(off.succeeded, "\(off)")
        #expect(soundBankLines(off).values.allSatisfy { $0 == nil }, "\(off)")
        try sandbox.writeUserConfiguration("sidecar_soundfonts = false\n")
        let configured = try sandbox.run(["info", "Album", "Solo"])
        #expect(configured.succeeded, "\(configured)")
        #expect(soundBankLines(configured).values.allSatisfy { $0 == nil }, "\(configured)")
        try sandbox.writeUserConfiguration("sidecar_soundfonts = true\n")
        #expect(soundBankLines(try sandbox.run(["info", "Album", "Solo"])).values.allSatisfy { $0 != nil })
    }

    @Test("an RMID file's own bank wins over the bank beside it, which the line names")
    func embeddedWins() throws {
        let sandbox = try library()
        try sandbox.write("Album/Nocturne.rmi", RMIDWriter().encode(song: Fixtures.song(), soundBank: Self.bank.bytes(.soundFont2)))
        try sandbox.write("Album/nocturne.sf2", Self.bank.bytes(.soundFont2))
        let result = try sandbox.run(["info", "Album/Nocturne.rmi"])
        #expect(
            InfoCommandTests.field("Sound bank", in: result.stdoutLines)
                == "embedded SF2, 40 KB, 2 presets, bank offset 1 (the file's own, over nocturne.sf2 beside it)", "\(result)")
        let alone = try sandbox.run(["info", "--no-sidecar", "Album/Nocturne.rmi"])
        #expect(
            InfoCommandTests.field("Sound bank", in: alone.stdoutLines) == "embedded SF2, 40 KB, 2 presets, bank offset 1 (the file's own)",
            "\(alone)")
    }

    @Test("a damaged bank beside the song is named, its presets unreadable; the report goes on")
    func damagedBank() throws {
        let sandbox = try library()
        try sandbox.write("Solo/Piano.dls", Array("not a sound bank".utf8))
        let result = try sandbox.run(["info", "Solo/Song.mid"])
        #expect(result.succeeded && result.stderr.isEmpty, "\(result)")
        #expect(
            InfoCommandTests.field("Sound bank", in: result.stdoutLines)
                == "Piano.dls beside it, DLS, 1 KB, instruments unreadable (the bank is damaged or cut short) (the folder's only bank)", "\(result)")
    }

    @Test("--json: the bank's kind and presets, its reason, its file, and the sidecar an embedded bank wins over")
    func json() throws {
        let sandbox = try library()
        try sandbox.write("Album/Nocturne.rmi", RMIDWriter().encode(song: Fixtures.song(), soundBank: Self.bank.bytes(.downloadableSounds)))
        try sandbox.write("Album/Nocturne.sf3", Self.bank.bytes(.soundFont2))
        let result = try sandbox.run(["info", "--json", "Album/Chopin.mid", "Album/Nocturne.rmi", "Solo/Song.mid"])
        #expect(result.succeeded, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result)")
        let banks = try #require(document["files"] as? [[String: Any]]).map { $0["soundBank"] as? [String: Any] }
        #expect(banks.count == 3)
        #expect(banks[0]?["reason"] as? String == "sameName" && banks[0]?["file"] as? String == "Chopin.sf2", "\(banks)")
        #expect(banks[0]?["kind"] as? String == "sf2" && banks[0]?["presetCount"] as? Int == 2 && banks[0]?["bankOffset"] as? Int == 0)
        #expect(banks[1]?["reason"] as? String == "embedded" && banks[1]?["file"] == nil, "\(banks)")
        #expect(banks[1]?["kind"] as? String == "dls" && banks[1]?["sidecarNotUsed"] as? String == "Nocturne.sf3")
        #expect(banks[2]?["reason"] as? String == "onlyBankInFolder" && banks[2]?["file"] as? String == "Piano.dls", "\(banks)")
    }

    @Test("--no-sidecar is an option of every command that makes sound")
    func optionOfSoundCommands() throws {
        let sandbox = try Sandbox()
        for command in ["render", "play", "browse", "resume", "search"] {
            let help = try sandbox.run([command, "--help"])
            #expect(help.stdout.contains("--no-sidecar"), "\(command): \(help)")
        }
    }
}
