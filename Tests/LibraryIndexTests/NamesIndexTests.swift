import Foundation
import Testing

@testable import LibraryIndex

/// The names' own full-text index, which finds the files listed first (every word in the name):
/// kept with each update, and made from the full-text index of an index made before it.
struct NamesIndexTests {
    typealias World = LibraryIndexTests.World

    @Test("files with the word in their names come first, before earlier files with it only in their folders, as files change and go")
    func namesFirstAcrossUpdates() throws {
        let world = try World()
        // Zzz's file then has the last row number, which the file added after it is gone takes:
        // the names' index must not give the old name's row to the new file.
        try FileManager.default.removeItem(atPath: world.root + "/ショパン")
        try world.write("Preludes/Op.28 No.1.mid", World.song(title: "Agitato"))
        try world.write("Preludes/Op.28 No.2.mid", World.song(title: "Lento"))
        try world.write("Zzz/Prelude Pastorale.mid", World.song(title: "BWV 846"))
        _ = try world.update()
        #expect(try world.search(["prelude"]) == ["Zzz/Prelude Pastorale.mid", "Preludes/Op.28 No.1.mid", "Preludes/Op.28 No.2.mid"])

        try FileManager.default.removeItem(atPath: world.root + "/Zzz/Prelude Pastorale.mid")
        try world.write("Zzz/Prelude Funebre.mid", World.song(title: "BWV 860"))
        try world.write("Preludes/Op.28 No.2.mid", World.song(title: "Lento", seconds: 3))
        let update = try world.update()
        #expect(update.removed == 1 && update.added == 1 && update.updated == 1, "\(update)")
        #expect(try world.search(["prelude"]) == ["Zzz/Prelude Funebre.mid", "Preludes/Op.28 No.1.mid", "Preludes/Op.28 No.2.mid"])
        #expect(try world.search(["pastorale"]).isEmpty, "the name gone is gone from the names' index too")
        #expect(try world.search(["funebre"]) == ["Zzz/Prelude Funebre.mid"])
    }

    @Test("an index made before the names' own index gets it, from what it holds: the files with the word in their names still come first")
    func madeFromAnOlderIndex() throws {
        let world = try World()
        try FileManager.default.removeItem(atPath: world.root)
        try world.write("Preludes/Op.28 No.1.mid", World.song(title: "Agitato"))
        try world.write("Zzz/Prelude in C.mid", World.song(title: "BWV 846"))
        // Row 1 is the file with the word in its folder only.
        try RMIDInfoIndexTests.makeOldIndex(of: world, titles: ["Preludes/Op.28 No.1.mid": "Agitato", "Zzz/Prelude in C.mid": "BWV 846"])
        #expect(try world.search(["prelude"]) == ["Zzz/Prelude in C.mid", "Preludes/Op.28 No.1.mid"])
    }
}
