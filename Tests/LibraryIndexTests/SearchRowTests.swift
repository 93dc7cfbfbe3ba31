import Foundation
import SystemPackage
import Testing

@testable import LibraryIndex

/// A file's texts as the full-text index is given them.
struct SearchRowTests {
    /// The other pairs are those of the folders and the title together, though the folder's are
    /// cut once for all its files: with either empty, and with a letter alone at the end of each.
    @Test func otherPairsAreThoseOfFoldersAndTitleTogether() throws {
        let folder = try TemporaryFolder()
        for (relative, title) in [("Chopin/Études", "Ballade No. 1"), ("", "Op. 9 x"), ("a/b", ""), ("", ""), ("序曲/z", "の")] {
            let path = FilePath(folder.file("Ballade.mid"))
            try LibraryIndexTests.midi(title: title).write(to: URL(fileURLWithPath: path.string))
            let facts = try FileFacts(path: path, textEncoding: nil)
            let row = SearchRow(path: path, folder: SearchFolder(relative: relative), facts: facts)
            #expect(row.otherPairs == SearchText.letterPairs(of: row.folders + " " + row.title), "\(relative), \(title)")
            #expect(row.name == "ballade")
        }
    }
}
