import Foundation
import TestSupport
import Testing

extension PlayCommandTests {
    @Test(
        "an LZH of LHarc 1 (-lh1-, level 0, Shift-JIS names in a nested folder) plays its songs, each announced by its path through the archive and heard as written"
    )
    func lh1ArchivePlays() throws {
        let sandbox = try Sandbox()
        var lzh = LZHWriter(level: .level0)
        lzh.add(LZHWriter.Member(path: Array("ショパン/練習曲/表.mid".data(using: .shiftJIS)!), data: Songs.heldNote(72, seconds: 1), method: .lh1))
        lzh.add(LZHWriter.Member(path: Array("ソナタ.mid".data(using: .shiftJIS)!), data: Songs.heldNote(64, seconds: 1), method: .lh1))
        try sandbox.write("pack.lzh", lzh.encode())
        let take = try Take(server)
        let player = try PlayingCommand(sandbox, ["play", "pack.lzh/ショパン/練習曲/表.mid", "pack.lzh/ソナタ.mid"] + Self.clean, server: server)
        let exit = player.wait(timeLimit: 20)
        let (sound, _) = try take.finish()
        #expect(exit.status == 0 && exit.signal == nil && player.problems.isEmpty, "\(player.report(exit))")
        #expect(
            player.stdoutLines == ["playing 1/2: pack.lzh/ショパン/練習曲/表.mid (0:01.0)", "playing 2/2: pack.lzh/ソナタ.mid (0:01.0)"],
            "\(player.report(exit))")
        #expect(sound.noteRuns().map(\.note) == [72, 64], "notes heard: \(sound.noteRuns().map(\.note))")
    }
}
