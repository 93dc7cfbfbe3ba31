import Foundation
import Testing
@testable import Library

struct MIDIFileCollectorTests {
    @Test func ordersNamesAsPeopleDo() {
        let names = ["Op.10 No.1.mid", "op.9 No.2.mid", "Op.9 No.10.mid", "Op.9 No.1.mid", "Étude.mid", "Zeta.mid"]
        #expect(names.sorted(by: NaturalOrder.precedes) == ["Étude.mid", "Op.9 No.1.mid", "op.9 No.2.mid", "Op.9 No.10.mid", "Op.10 No.1.mid", "Zeta.mid"])
        // The same name typed on macOS (NFD) and on Linux (NFC) compares equal by content.
        let nfc = "Gymnop\u{E9}die 2.mid"
        let nfd = "Gymnope\u{301}die 10.mid"
        #expect(NaturalOrder.precedes(nfc, nfd))
        #expect(!NaturalOrder.precedes(nfd, nfc))
    }

    @Test func collectsFoldersFirstInNaturalOrderAndSurvivesLoops() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("collector-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = ["ショパン/Ballades/Ballade No.10.mid", "ショパン/Ballades/Ballade No.4.mid", "ショパン/b.mid",
                     "Bach/a.MID", "Bach/notes.txt", "Bach/.hidden.mid", "Bach/misnamed.bin"]
        for file in files {
            let path = root + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let contents = file.hasSuffix("misnamed.bin") ? Array("MThd".utf8) + [0, 0, 0, 6] : Array("x".utf8)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(contents)))
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/Bach/loop", withDestinationPath: root)
        var collector = MIDIFileCollector()
        collector.add(path: root)
        #expect(collector.files.map { String($0.dropFirst(root.count + 1)) } == [
            "Bach/a.MID", "Bach/misnamed.bin", "ショパン/Ballades/Ballade No.4.mid", "ショパン/Ballades/Ballade No.10.mid", "ショパン/b.mid",
        ])
        #expect(collector.problems.isEmpty)
    }

    @Test func reportsMissingPathsAndEmptyFolders() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        var collector = MIDIFileCollector()
        collector.add(path: empty)
        collector.add(path: empty + "/missing.mid")
        #expect(collector.files.isEmpty)
        #expect(collector.problems.map(\.description) == ["\(empty): no MIDI files in this folder", "\(empty)/missing.mid: No such file or directory"])
    }
}
